/*
 * asys_exit: a task that exits or execve()s with calls pending goes promptly, and every
 * fibril stack and completion is freed.
 *
 * (exercise 5)
 * Four children each submit [nanosleep 10 s, read on an empty pipe, getpid] (two calls
 * pending, one completion uncollected), tell the parent, and then:
 *   exit_group   _exit(0)
 *   exit         the raw exit system call (1)
 *   SIGKILL      wait in pause() until the parent kills them
 *   execve       re-execute this program with --exec-child; the new image checks that
 *                it inherited nothing (await returns 0 at once) and exits 42
 * The parent must reap each within 6 s (not after the 10 s sleep: the gap is room for
 * a loaded host, prompt exits take milliseconds) with the expected status. Then
 * KernelStack: in /proc/meminfo must come back to its baseline (stacks go back through
 * RCU, which a starved guest delays, so it may take up to 15 s):
 * 8 fibril stacks of 8 kB would leak otherwise.
 *
 * A kernel whose exit waits for pending calls would wait forever for the read (only
 * the parent holds the pipe's write end): when a child is not reaped in time the
 * parent writes a byte to let its read finish, so the test fails without leaving a
 * task stuck in the kernel.
 */
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

enum mode { EXIT_GROUP, EXIT_THREAD, KILLED, EXECVE };
static const char *const mode_name[] = { "exit_group", "exit", "SIGKILL", "execve" };

static int hold[2];	/* nobody ever writes it: a read on hold[0] blocks */
static char *self;

/* the image an execve child becomes: it must start with nothing pending */
static int exec_child(void)
{
	struct asys_completion c;
	long r;

	/* an inherited pending call would block await: the watchdog ends it */
	asys_watchdog(30);
	asys_watchdog_step = "await in the image after execve";
	r = asys_await_completion(&c);
	if (r == 0)
		return 42;
	printf("after execve: await returned %ld (want 0: nothing inherited)\n", r);
	return 43;
}

static void child_main(int mode, int ready)
{
	struct asys_input reqs[3];
	struct asys_timespec32 ts;
	unsigned long sargs[2], rargs[3];
	char buf[4];
	long r;

	rargs[0] = hold[0];
	rargs[1] = (unsigned long)buf;
	rargs[2] = 1;
	asys_sleep_req(&reqs[0], 1, 10 * 1000, &ts, sargs);
	asys_req(&reqs[1], SYS_read, 2, rargs, 3);
	asys_req(&reqs[2], SYS_getpid, 3, NULL, 0);
	r = asys_submit(reqs, 3);
	if (write(ready, r == 3 ? "y" : "n", 1) != 1 || r != 3)
		_exit(3);
	switch (mode) {
	case EXIT_GROUP:
		_exit(0);
	case EXIT_THREAD:
		syscall(SYS_exit, 0);
		_exit(4);
	case KILLED:
		for (;;)
			pause();
	case EXECVE:
		execl(self, self, "--exec-child", (char *)NULL);
		printf("execve(%s) failed: %s\n", self, strerror(errno));
		fflush(stdout);
		_exit(5);
	}
	_exit(6);
}

static void run_child(enum mode mode)
{
	int status = 0, reaped, expected;
	double t0, dt;
	pid_t child;

	asys_watchdog_step = mode_name[mode];
	CHECK(asys_fork_ready(child_main, mode, &child),
	      "%s child: submitted a 10 s sleep, a pipe read and a getpid", mode_name[mode]);
	REQUIRE(child > 0, "fork()");
	usleep(20 * 1000);	/* let it reach its exit / pause / execve */
	t0 = asys_now_ms();
	if (mode == KILLED)
		kill(child, SIGKILL);
	reaped = asys_reap_within(child, &status, 6000);
	dt = asys_now_ms() - t0;
	CHECK(reaped, "%s child reaped within 6 s, before its 10 s sleep could end (%.1f ms)", mode_name[mode], dt);
	if (!reaped) {
		/* its exit waits for the read: give it its byte */
		if (write(hold[1], "r", 1) != 1)
			printf("cannot write the rescue byte\n");
		kill(child, SIGKILL);
		if (!asys_reap_within(child, &status, 12000)) {
			printf("the %s child cannot even be killed: giving up on it\n", mode_name[mode]);
			return;
		}
	}
	switch (mode) {
	case KILLED:
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "it died of SIGKILL (status 0x%x)", status);
		break;
	case EXECVE:
		expected = 42;
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == expected,
		      "execve succeeded and the new image had nothing pending: exit %d (status 0x%x)", expected, status);
		break;
	default:
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "it exited with status 0 (status 0x%x)", status);
	}
}

int main(int argc, char **argv)
{
	long base, now;
	int m;

	if (argc > 1 && strcmp(argv[1], "--exec-child") == 0)
		return exec_child();
	self = argv[0][0] == '/' ? argv[0] : "/proc/self/exe";

	asys_watchdog(110);	/* a start tree takes about 60 s: each child waits out its bound */
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = pipe(hold) == 0;
	REQUIRE(ok, "pipe()");
	base = kernel_stack_kb();
	REQUIRE(base > 0, "KernelStack: baseline %ld kB", base);

	for (m = EXIT_GROUP; m <= EXECVE; m++)
		run_child(m);

	asys_watchdog_step = "KernelStack back to baseline";
	now = kernel_stack_settle_within(base, KSTACK_ONE_STACK_KB, 15);
	CHECK(now <= base + KSTACK_ONE_STACK_KB,
	      "KernelStack back to its baseline: %ld kB, baseline %ld kB (slack %d kB): no fibril stack leaked",
	      now, base, KSTACK_ONE_STACK_KB);
	close(hold[0]);
	close(hold[1]);
	return labtest_done();
}
