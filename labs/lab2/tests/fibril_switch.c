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
 * (8 kB each); afterwards KernelStack: is back to its value before.
 */
#include <pthread.h>
#include "fibril_selftest.h"

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

	*(long *)arg = selftest_run("fibrils=64 spin_ms=1000", &r);
	return NULL;
}

int main(void)
{
	long base, during, after, spin_ret = 0;
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

	/* While 64 fibrils exist, their 64 x 8 kB of stack are KernelStack. */
	REQUIRE(pthread_create(&t, NULL, spin_thread, &spin_ret) == 0, "start a 1 s run of 64 fibrils");
	usleep(500 * 1000);
	during = kernel_stack_kb();
	pthread_join(t, NULL);
	CHECK(spin_ret == (long)strlen("fibrils=64 spin_ms=1000"), "the spin_ms run succeeded (%ld)", spin_ret);
	CHECK(during >= base + 64 * 8, "KernelStack during the run: %ld kB >= %ld + 512", during, base);

	after = kernel_stack_settle(base);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
