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
 *  - without it, the fibril runs; its first act is to put the magic back and
 *    note that it ran, so the write fails with EIO ("refused 0",
 *    "result fail") and nothing crashes.
 *
 * Either way the kernel must stay healthy: a normal run afterwards passes and
 * KernelStack: is back to its value before.
 */
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

int main(void)
{
	long base, after, ret;
	struct report r;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	base = kernel_stack_baseline();

	corrupt_run("fibrils=3 switches=2000 corrupt=1");
	corrupt_run("fibrils=1 switches=100 corrupt=1");
	corrupt_run("fibrils=64 switches=2000 corrupt=1");

	ret = selftest_run("fibrils=3 switches=1000", &r);
	CHECK(ret > 0 && !strcmp(r.result, "ok"), "a normal run still passes afterwards");
	after = kernel_stack_settle(base);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
