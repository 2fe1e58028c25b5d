/*
 * asys_proc_syscall: /proc/PID/syscall names the system call the thread's user context
 * is in, as it does for a thread without asys calls: not the call of whichever of its
 * call chains ran last.
 *
 * /proc/PID/syscall reads the registers at the top of the task's stack
 * (collect_syscall() in lib/syscall.c). With asys, task->stack is the stack of the chain
 * that runs now, or ran last: a call's fibril, whose registers are the call's, or (in
 * cachemiss mode) the stack the user context left, which still holds its asys_submit()
 * entry. The user context's registers are at the top of the main chain's stack.
 *
 * A child C forks G1, which sleeps; it submits wait4(G1) through asys (the call
 * sleeps on a fibril), tells the parent G1's pid and blocks in read() on a pipe. The
 * parent stops G1: that wakes C's wait4 on its fibril, which finds nothing to report
 * (no WUNTRACED) and sleeps again, so the call's chain ran last. The parent then reads
 * /proc/C/syscall: the oracle is what a process asleep in the same read() shows, "3 ..."
 * (read is 3 on i386), and C must show the same, not 114 (wait4) or 451 (asys_submit).
 */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

/* the first field of /proc/PID/syscall: the call number, -1 when not in one */
static long proc_syscall_nr(pid_t pid, char *line, size_t n)
{
	char path[64];
	FILE *f;
	long nr = -2;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	f = fopen(path, "r");
	line[0] = 0;
	if (f && fgets(line, n, f))
		sscanf(line, "%ld", &nr);
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = 0;
	return nr;
}

/* a process asleep in read() on in: the oracle */
static void plain_reader(int in, int ready)
{
	char b;

	pid_t none = 0;

	if (write(ready, &none, sizeof(none)) != sizeof(none) || read(in, &b, 1) != 1)
		_exit(3);
	_exit(0);
}

/* C: wait4(G1) pending on asys, then read() on in */
static void asys_reader(int in, int ready)
{
	struct asys_completion c;
	unsigned long args[ASYS_MAX_ARGS] = { 0 };
	pid_t g1;
	int err;
	char b;

	g1 = fork();
	if (g1 == 0) {
		for (;;)
			pause();
	}
	args[0] = g1;
	if (g1 < 0 || asys_submit1(SYS_wait4, 1, args, 4, &err) != 1)
		_exit(4);
	if (write(ready, &g1, sizeof(g1)) != sizeof(g1) || read(in, &b, 1) != 1)
		_exit(5);
	kill(g1, SIGKILL);
	if (asys_await_completion(&c) != 1 || c.return_code != g1)
		_exit(6);
	_exit(0);
}

/*
 * Start one reader; stop its child G1 if it has one (the wake-up its wait4 ignores);
 * after 300 ms, what /proc/PID/syscall says; then release the reader.
 */
static long shown(void (*reader)(int, int), char *line, size_t n, int *status)
{
	int in[2], ready[2];
	pid_t pid, g1 = 0;
	long nr;

	if (pipe(in) || pipe(ready))
		return -3;
	pid = fork();
	if (pid == 0) {
		close(in[1]);
		reader(in[0], ready[1]);
	}
	if (pid < 0 || read(ready[0], &g1, sizeof(g1)) != sizeof(g1))
		return -3;
	usleep(100 * 1000);	/* it is asleep in read() */
	if (g1 > 0)
		kill(g1, SIGSTOP);
	usleep(300 * 1000);
	nr = proc_syscall_nr(pid, line, n);
	if (write(in[1], "x", 1) != 1 || !asys_reap_within(pid, status, 5000))
		*status = -1;
	close(in[0]), close(in[1]), close(ready[0]), close(ready[1]);
	return nr;
}

int main(void)
{
	char line[256];
	int status;
	long nr;

	ok = asys_present();
	REQUIRE(ok, "asys_submit is a system call of this kernel");
	asys_watchdog(30);

	asys_watchdog_step = "a plain reader";
	nr = shown(plain_reader, line, sizeof(line), &status);
	CHECK(nr == SYS_read, "the oracle: a process asleep in read() shows %d (\"%s\")",
	      SYS_read, line);

	asys_watchdog_step = "a reader with wait4 pending on asys";
	nr = shown(asys_reader, line, sizeof(line), &status);
	CHECK(nr == SYS_read, "a process asleep in read() with a wait4() pending on asys, "
	      "whose chain ran last, shows read, %d, as without asys (\"%s\"; %d is wait4, %d "
	      "asys_submit)", SYS_read, line, SYS_wait4, __NR_asys_submit);
	CHECK(status == 0, "it then collects its wait4 and exits 0 (status 0x%x)", status);
	return labtest_done();
}
