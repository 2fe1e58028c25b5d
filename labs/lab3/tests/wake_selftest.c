/*
 * wake_selftest: the kernel's fibril self-test in its wake-up modes (patch 3,
 * wake targets), and fibril stacks are all given back afterwards.
 *
 *   mode=waitqueue   sleepers in wait_event_interruptible(), each woken by
 *                    wake_up() on its own queue: a targeted wake-up, which
 *                    must wake that fibril and no other ("spurious 0")
 *   mode=taskwake    sleepers on a task-directed DECLARE_WAITQUEUE() entry,
 *                    woken by wake_up() and wake_up_process(): the safety
 *                    net, which wakes every sleeping fibril of the task
 *   mode=hrtimer     20 ms sleeps in hrtimer sleepers (usleep_range-style)
 *                    and timers (msleep-style): none ends early (the kernel
 *                    judges timer sleeps in jiffies, which lag and jump
 *                    under SMP TCG), and the fibrils' sleeps overlap
 *   mode=mutex       fibrils block on a mutex and an rwsem held by a sibling
 *                    (their own task): no optimistic spinning on
 *                    owner == current, and the wake_q wake-up reaches them
 *   main=sleep       the main chain sleeps too, so the whole task sleeps and
 *                    waking one fibril must wake the task
 *
 * A SIGKILL during a run ends it promptly (signals reach sleeping fibrils),
 * the Lab 2 line "fibrils=N switches=K" still works, and bad lines are EINVAL.
 * Run with -smp 1 and -smp 2.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fibril_selftest.h"	/* selftest_run(), and kstack.h's KernelStack meter */

/* Run a line that must pass; the report is left in *r. */
static void run_ok(const char *line, struct report *r)
{
	long ret = selftest_run(line, r);

	CHECK(ret == (long)strlen(line), "write(\"%s\") returns its length (got %ld)", line, ret);
	CHECK(!strcmp(r->result, "ok") && r->checks_failed == 0,
	      "  report: result %s, checks_failed %ld, status %ld, elapsed %ld ms", r->result,
	      r->checks_failed, r->status, r->elapsed_ms);
	printf("  mode %s rounds %ld wakeups %ld spurious %ld early %ld sleep %ld..%ld us, %ld switches\n",
	       r->mode, r->rounds, r->wakeups, r->spurious, r->early, r->min_sleep_us,
	       r->max_sleep_us, r->switches);
}

static void waitqueue_mode(void)
{
	struct report r;

	run_ok("mode=waitqueue fibrils=4 rounds=50", &r);
	CHECK(!strcmp(r.mode, "waitqueue"), "  report: mode %s", r.mode);
	CHECK(r.wakeups == 150, "  3 sleepers x 50 rounds: %ld targeted wake-ups", r.wakeups);
	CHECK(r.spurious == 0, "  a targeted wake-up woke no other fibril (spurious %ld)", r.spurious);

	run_ok("mode=waitqueue fibrils=3 rounds=30 main=sleep", &r);
	CHECK(r.wakeups == 60 && r.spurious == 0,
	      "  main chain asleep too: %ld wake-ups (60), spurious %ld (0)", r.wakeups, r.spurious);
}

static void taskwake_mode(void)
{
	struct report r;

	run_ok("mode=taskwake fibrils=4 rounds=50", &r);
	CHECK(r.wakeups == 150, "  3 sleepers x 50 rounds: %ld task-directed wake-ups reached their fibril",
	      r.wakeups);
	CHECK(r.spurious > 0, "  the safety net woke other sleeping fibrils too (spurious %ld)", r.spurious);

	run_ok("mode=taskwake fibrils=2 rounds=20 main=sleep", &r);
	CHECK(r.wakeups == 20, "  main chain asleep too: %ld wake-ups (20)", r.wakeups);
}

static void hrtimer_mode(void)
{
	struct report r;

	run_ok("mode=hrtimer fibrils=4 rounds=10 ms=20", &r);
	CHECK(r.wakeups == 40, "  4 fibrils x 10 sleeps: %ld", r.wakeups);
	/* early: by the clocksource for hrtimer sleeps, in jiffies for msleep-style ones */
	CHECK(r.early == 0 && r.min_sleep_us >= 20000,
	      "  no sleep ended early (early %ld, shortest %ld us)", r.early, r.min_sleep_us);
	/*
	 * Overlap is counted, not timed: a wall-clock bound fails on a loaded
	 * host.  If a sleeping fibril held up the whole task, never more than
	 * one would be inside a sleep at a time.
	 */
	CHECK(r.max_asleep >= 2 && r.max_asleep <= 4,
	      "  the fibrils slept at the same time: up to %ld of 4 asleep at once (want 2..4; %ld ms in all)",
	      r.max_asleep, r.elapsed_ms);

	run_ok("mode=hrtimer fibrils=2 rounds=10 ms=20 main=sleep", &r);
	CHECK(r.wakeups == 20 && r.early == 0 && r.min_sleep_us >= 20000,
	      "  main chain asleep too: %ld sleeps, early %ld, shortest %ld us", r.wakeups, r.early,
	      r.min_sleep_us);
}

/*
 * Fibrils that block on a mutex / rwsem their sibling (so their own task)
 * holds: no spinning on owner == current (SMP), and the task-directed wake_q
 * wake-up of the unlock reaches the sleeping fibril (safety net).
 */
static void mutex_mode(void)
{
	struct report r;

	run_ok("mode=mutex fibrils=3 rounds=10 ms=2", &r);
	CHECK(r.wakeups == 60, "  3 fibrils x 10 rounds x (mutex + rwsem): %ld critical sections", r.wakeups);
	run_ok("mode=mutex fibrils=2 rounds=10 ms=2 main=sleep", &r);
	CHECK(r.wakeups == 40, "  main chain asleep too: %ld critical sections (40)", r.wakeups);
}

/* SIGKILL while fibrils sleep: the signal must reach them, and the run ends. */
static void kill_during(const char *line)
{
	struct timespec t0, t1;
	struct report r;
	int status;
	double s;
	pid_t child = fork();

	if (child < 0) {
		CHECK(0, "fork()");
		exit(1);
	}
	if (child == 0) {
		selftest_run(line, &r);
		_exit(0);
	}
	usleep(300 * 1000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	kill(child, SIGKILL);
	CHECK(waitpid(child, &status, 0) == child, "waitpid() for the child running \"%s\"", line);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "  the child died of SIGKILL (status %#x)", status);
	/*
	 * A death takes milliseconds; 10 s is a bound no loaded host reaches,
	 * yet far short of a run that ignored the signal (the hrtimer one
	 * would last 100 s, the others tens of seconds in TCG).
	 */
	CHECK(s < 10.0, "  within %.2f s of the SIGKILL", s);
}

int main(void)
{
	long base, after;
	struct report r;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists (debugfs, CONFIG_FIBRILS)", SELFTEST);
	base = kernel_stack_baseline();
	REQUIRE(base > 0, "KernelStack: is %ld kB before", base);

	waitqueue_mode();
	taskwake_mode();
	hrtimer_mode();
	mutex_mode();

	/* Lab 2's yield mode is unchanged. */
	run_ok("fibrils=3 switches=1000", &r);
	CHECK(!strcmp(r.mode, "yield") && r.switches >= 1000, "  yield mode: %s, %ld switches", r.mode,
	      r.switches);

	CHECK(selftest_run("mode=waitqueue fibrils=1", &r) == -EINVAL, "waitqueue with no sleeper is EINVAL");
	CHECK(selftest_run("mode=sleepy fibrils=2", &r) == -EINVAL, "an unknown mode is EINVAL");
	CHECK(selftest_run("mode=hrtimer fibrils=2 switches=10", &r) == -EINVAL,
	      "switches= with a wake mode is EINVAL");
	CHECK(selftest_run("fibrils=2 switches=10 rounds=3", &r) == -EINVAL, "rounds= without a mode is EINVAL");
	CHECK(selftest_run("mode=hrtimer fibrils=2 ms=0", &r) == -EINVAL, "ms=0 is EINVAL");

	kill_during("mode=waitqueue fibrils=4 rounds=100000 main=sleep");
	kill_during("mode=taskwake fibrils=3 rounds=100000");
	kill_during("mode=hrtimer fibrils=4 rounds=1000 ms=100");

	after = kernel_stack_settle(base);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
