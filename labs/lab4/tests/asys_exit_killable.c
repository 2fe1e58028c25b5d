/*
 * asys_exit_killable: exit and exec end a call that sleeps killably, as promptly as
 * they end such a sleep in the group's other threads.
 *
 * (exercise 5)
 * A call asleep killably (waiting for a lock, say) ignores ordinary signals and wakes
 * only for a fatal one: an exit or exec that waits for it waits as long as it sleeps,
 * or for ever.
 *
 * The kernel's /sys/kernel/debug/fibrils/killable_sleep is such a call: a write of "MS"
 * sleeps MS milliseconds in TASK_KILLABLE, and the file counts how sleeps ended
 * ("started", "killed", "timed_out"). Three children each submit a 10 s killable sleep,
 * wait until it has started, tell the parent, and then:
 *   exit_group   _exit(0)
 *   execve       re-execute this program with --exec-child, which must find nothing
 *                pending and exit 42
 *   SIGKILL      wait in pause() until the parent kills them (a control: a real fatal
 *                signal ends the sleep on any kernel)
 * Each child's sleep must end by the kill ("killed" grows by one, "timed_out" does not),
 * and the child must be reaped before its 10 s sleep could have run out (within 8 s).
 * On a kernel that does not kill, the sleep times out after 10 s; the test fails on the
 * counts, and nothing is left running.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

#define SLEEP_FILE "/sys/kernel/debug/fibrils/killable_sleep"
#define SLEEP_MS "10000"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

enum mode { EXIT_GROUP, EXECVE, KILLED };
static const char *const mode_name[] = { "exit_group", "execve", "SIGKILL" };
static char *self;

struct sleeps {
	long started, killed, timed_out;
};

static int read_sleeps(struct sleeps *s)
{
	static const char *const keys[] = { "started", "killed", "timed_out" };
	long v[3];
	int ret = read_counters(SLEEP_FILE, keys, v, 3);

	s->started = v[0], s->killed = v[1], s->timed_out = v[2];
	return ret;
}

/* the image an execve child becomes: it must start with nothing pending */
static int exec_child(void)
{
	struct asys_completion c;
	long r;

	asys_watchdog(10);
	asys_watchdog_step = "await in the image after execve (the call was inherited)";
	r = asys_await_completion(&c);
	return r == 0 ? 42 : 43;
}

static void child_main(int mode, int ready)
{
	struct asys_input req;
	unsigned long args[3];
	struct sleeps before, now;
	double end;
	int fd = open(SLEEP_FILE, O_WRONLY);

	if (fd < 0 || read_sleeps(&before))
		_exit(3);
	args[0] = fd;
	args[1] = (unsigned long)SLEEP_MS;
	args[2] = strlen(SLEEP_MS);
	asys_req(&req, SYS_write, 1, args, 3);
	if (asys_submit(&req, 1) != 1)
		_exit(4);
	/* the call runs on its fibril until it sleeps: it has started when submit returns */
	end = asys_now_ms() + 2000;
	while (!read_sleeps(&now) && now.started == before.started && asys_now_ms() < end)
		usleep(5 * 1000);
	if (write(ready, now.started > before.started ? "y" : "n", 1) != 1)
		_exit(5);
	switch (mode) {
	case EXIT_GROUP:
		_exit(0);
	case EXECVE:
		execl(self, self, "--exec-child", (char *)NULL);
		printf("execve(%s) failed: %s\n", self, strerror(errno));
		fflush(stdout);
		_exit(6);
	case KILLED:
		for (;;)
			pause();
	}
	_exit(7);
}

static void run_child(enum mode mode)
{
	struct sleeps before, after;
	int status = 0, reaped;
	pid_t child;
	double t0;

	ok = read_sleeps(&before) == 0;
	REQUIRE(ok, "read %s", SLEEP_FILE);
	asys_watchdog_step = mode_name[mode];
	CHECK(asys_fork_ready(child_main, mode, &child),
	      "%s child: submitted a %s ms killable sleep, and it started", mode_name[mode], SLEEP_MS);
	REQUIRE(child > 0, "fork()");
	usleep(20 * 1000);	/* let it reach its exit / execve / pause */
	t0 = asys_now_ms();
	if (mode == KILLED)
		kill(child, SIGKILL);
	reaped = asys_reap_within(child, &status, 8000);
	CHECK(reaped, "%s child reaped before its sleep could run out (%.0f ms)",
	      mode_name[mode], asys_now_ms() - t0);
	if (!reaped) {
		kill(child, SIGKILL);
		if (!asys_reap_within(child, &status, 15000)) {
			printf("the %s child cannot even be killed: giving up on it\n", mode_name[mode]);
			return;
		}
	}
	switch (mode) {
	case KILLED:
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "it died of SIGKILL (status 0x%x)", status);
		break;
	case EXECVE:
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42,
		      "execve succeeded and the new image had nothing pending: exit 42 (status 0x%x)", status);
		break;
	default:
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "it exited with status 0 (status 0x%x)", status);
	}
	ok = read_sleeps(&after) == 0;
	REQUIRE(ok, "read %s", SLEEP_FILE);
	CHECK(after.killed == before.killed + 1 && after.timed_out == before.timed_out,
	      "%s: the sleep was killed (killed %ld -> %ld, timed_out %ld -> %ld)", mode_name[mode],
	      before.killed, after.killed, before.timed_out, after.timed_out);
}

int main(int argc, char **argv)
{
	long base, now;
	int m;

	if (argc > 1 && strcmp(argv[1], "--exec-child") == 0)
		return exec_child();
	self = argv[0][0] == '/' ? argv[0] : "/proc/self/exe";

	asys_watchdog(100);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = access(SLEEP_FILE, W_OK) == 0;
	REQUIRE(ok, "%s is there (patch 4)", SLEEP_FILE);
	base = kernel_stack_kb();
	REQUIRE(base > 0, "KernelStack: baseline %ld kB", base);

	for (m = EXIT_GROUP; m <= KILLED; m++)
		run_child(m);

	asys_watchdog_step = "KernelStack back to baseline";
	now = kernel_stack_settle_within(base, KSTACK_ONE_STACK_KB, 15);
	CHECK(now <= base + KSTACK_ONE_STACK_KB,
	      "KernelStack back to its baseline: %ld kB, baseline %ld kB (slack %d kB): no fibril stack leaked",
	      now, base, KSTACK_ONE_STACK_KB);
	return labtest_done();
}
