/*
 * fibril_stack_end (Lab 2 exercise 2): the fibril switch refuses a fibril
 * whose stack has overflowed.
 *
 * SCHED_STACK_END_CHECK only looks at the stack that is running, inside
 * __schedule(). A switched-out fibril whose STACK_END_MAGIC word was
 * overwritten would simply be switched to. The self-test's corrupt=1 mode
 * overwrites that word of one switched-out, runnable fibril:
 *
 *  - with the exercise, schedule_fibril() refuses it (pr_err, off the run
 *    list, TASK_DEAD): the write succeeds, the report says "refused 1" and
 *    "result ok";
 *  - without it, the fibril runs; the self-test puts the magic back as the
 *    switch ends, before interrupts are on, and notes that it ran, so the
 *    write fails with EIO ("refused 0", "result fail") and nothing crashes.
 *
 * Either way the kernel must stay healthy: a normal run afterwards passes and
 * KernelStack: is back to its value before.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include "fibril_selftest.h"

static void corrupt_run(const char *line)
{
	struct report r;
	long ret = selftest_run(line, &r);

	CHECK(ret == (long)strlen(line), "write(\"%s\") succeeds (got %ld%s)", line, ret,
	      ret == -EIO ? ": EIO, a check failed" : "");
	CHECK(r.refused == 1, "report: refused %ld (the overwritten fibril was not run)", r.refused);
	CHECK(!strcmp(r.result, "ok") && r.checks_failed == 0, "report: result %s, checks_failed %ld",
	      r.result, r.checks_failed);
}

/*
 * Whatever the switch code does with the overwritten fibril, the kernel must
 * live. Repeat corrupt=1 beside a busy process on the same CPU, so that the
 * CPU is often wanted elsewhere just as a switch ends: a preemption right
 * after the overwritten fibril is switched in reaches __schedule(), whose own
 * stack end check panics. (A self-test that put the magic back only once
 * schedule() had returned crashed the start tree about once in 300 runs.)
 */
static void corrupt_many(int runs)
{
	cpu_set_t cpu0;
	int i, odd = 0;
	pid_t busy;
	struct report r;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	REQUIRE(sched_setaffinity(0, sizeof(cpu0), &cpu0) == 0, "pin to CPU 0");
	busy = fork();
	REQUIRE(busy >= 0, "fork a busy process");
	if (busy == 0)
		for (;;)
			;	/* inherits the CPU 0 affinity */
	for (i = 0; i < runs; i++) {
		long ret = selftest_run(i % 2 ? "fibrils=2 switches=50 corrupt=1" :
					"fibrils=5 switches=200 corrupt=1", &r);

		/* success (refused) or EIO (it ran): anything else is wrong */
		if (ret != -EIO && ret <= 0)
			odd++;
	}
	kill(busy, SIGKILL);
	waitpid(busy, NULL, 0);
	CHECK(odd == 0, "%d corrupt=1 runs beside a busy process: %d returned neither success nor EIO",
	      runs, odd);
}

int main(void)
{
	long base, after, ret;
	struct report r;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	base = kernel_stack_baseline();

	corrupt_run("fibrils=3 switches=2000 corrupt=1");
	corrupt_run("fibrils=1 switches=100 corrupt=1");
	corrupt_run("fibrils=64 switches=2000 corrupt=1");
	corrupt_many(600);

	ret = selftest_run("fibrils=3 switches=1000", &r);
	CHECK(ret > 0 && !strcmp(r.result, "ok"), "a normal run still passes afterwards");
	after = kernel_stack_settle(base);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
