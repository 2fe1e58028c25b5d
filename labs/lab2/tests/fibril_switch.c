/*
 * fibril_switch: the kernel's fibril self-test passes, and fibril stacks are
 * kernel stacks that are all given back.
 *
 *   fibrils=3 switches=10000    three fibrils and the main chain ping-pong
 *   fibrils=64 switches=2000    the maximum number of fibrils
 *
 * Every chain checks after each return from schedule() that it got back its
 * own per_call storage, stack (%esp, task->stack, thread.sp0, TSS sp1,
 * cpu_current_top_of_stack), lockdep depth and PF_MEMALLOC_NOIO scope. While
 * a run is in progress its stacks show up in KernelStack: of /proc/meminfo
 * (8 kB each): a thread runs "fibrils=64 spin_ms=1000" while the main thread
 * polls KernelStack: until it shows them, and the run is repeated (up to 20
 * times) when a loaded host let it end before the poll saw them. Afterwards
 * KernelStack: is back to its value before (within 30 s: stacks are freed
 * through RCU, which a starved guest delays).
 */
#include <pthread.h>
#include <time.h>
#include "fibril_selftest.h"

#define SPIN_LINE "fibrils=64 spin_ms=1000"
#define SPIN_RUNS 20
#define SETTLE_S 30

static volatile int spin_done;

static void run_ok(const char *line, long nr, long min_switches)
{
	struct report r;
	long ret = selftest_run(line, &r);

	CHECK(ret == (long)strlen(line), "write(\"%s\") returns its length (got %ld)", line, ret);
	CHECK(!strcmp(r.result, "ok") && r.checks_failed == 0,
	      "report: result %s, checks_failed %ld", r.result, r.checks_failed);
	CHECK(r.fibrils == nr, "report: fibrils %ld", r.fibrils);
	CHECK(r.switches >= min_switches && r.switches < min_switches + 4 * (nr + 1),
	      "report: switches %ld (at least %ld, and only a pass or so more)", r.switches, min_switches);
}

static void *spin_thread(void *arg)
{
	struct report r;

	*(long *)arg = selftest_run(SPIN_LINE, &r);
	spin_done = 1;
	return NULL;
}

int main(void)
{
	long base, start = 0, during = -1, max = -1, after, spin_ret = 0, bad_ret = 0;
	int runs, seen = 0, bad_runs = 0;
	struct report r;
	pthread_t t;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists (debugfs, CONFIG_FIBRILS)", SELFTEST);
	base = kernel_stack_baseline();
	REQUIRE(base > 0, "KernelStack: is %ld kB before", base);

	run_ok("fibrils=3 switches=10000", 3, 10000);
	run_ok("fibrils=64 switches=2000\n", 64, 2000);
	run_ok("fibrils=1 switches=1", 1, 1);

	/* Bad lines are refused before anything runs. */
	CHECK(selftest_run("fibrils=0 switches=10", &r) == -EINVAL, "fibrils=0 is EINVAL");
	CHECK(selftest_run("fibrils=65 switches=10", &r) == -EINVAL, "fibrils=65 is EINVAL");
	CHECK(selftest_run("fibrils=2", &r) == -EINVAL, "no switches= nor spin_ms= is EINVAL");
	CHECK(selftest_run("fibrils=2 switches=10 spin_ms=10", &r) == -EINVAL, "both is EINVAL");
	CHECK(selftest_run("fibrils=2 switches=10 color=red", &r) == -EINVAL, "unknown key is EINVAL");

	/*
	 * While 64 fibrils exist, their 64 x 8 kB of stack are KernelStack, with
	 * the spinning thread's own 8 kB. Poll until it shows them or the run ended.
	 */
	for (runs = 1; runs <= SPIN_RUNS && !seen; runs++) {
		/* the earlier runs' stacks gone first */
		start = kernel_stack_settle_within(base, 0, SETTLE_S);
		spin_done = 0;
		REQUIRE(pthread_create(&t, NULL, spin_thread, &spin_ret) == 0,
			"start a 1 s run of 64 fibrils");
		while (!spin_done) {
			during = kernel_stack_kb();
			if (during > max)
				max = during;
			if (during >= start + 65 * 8) {
				seen = 1;
				break;
			}
			usleep(2 * 1000);
		}
		pthread_join(t, NULL);
		if (spin_ret != (long)strlen(SPIN_LINE)) {
			bad_runs++;
			bad_ret = spin_ret;
		}
	}
	runs--;
	CHECK(bad_runs == 0, "the spin_ms runs succeeded (expected %zu each; %d of %d runs gave "
	      "another value, the last %ld)", strlen(SPIN_LINE), bad_runs, runs, bad_ret);
	CHECK(seen, "KernelStack during the run: expected >= %ld + 520 kB (64 fibrils and the thread), "
	      "got %ld kB (max %ld, run %d of at most %d)", start, during, max, runs, SPIN_RUNS);

	after = kernel_stack_settle_within(base, 0, SETTLE_S);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
