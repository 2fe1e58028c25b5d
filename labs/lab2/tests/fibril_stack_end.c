/*
 * fibril_stack_end (Lab 2 exercise 2): the fibril switch panics before it
 * switches to a fibril whose stack has overflowed.
 *
 * Expected panic: Kernel panic - not syncing: fibril: corrupted stack end detected before switching to it
 *
 * A panic test (tests.conf "panic"): it runs alone in a boot of its own, and
 * the grader passes it when the kernel dies with the panic above after this
 * program printed "panic-test: armed" (vm/grade/panic-result.sh).
 *
 * SCHED_STACK_END_CHECK only looks at the stack that is running, inside
 * __schedule(). A switched-out fibril whose STACK_END_MAGIC word was
 * overwritten would simply be switched to. The self-test's corrupt=1 mode
 * overwrites that word of one switched-out, runnable fibril:
 *
 *  - with the exercise, the switch panics before running it: the boot ends
 *    here, and that is the pass;
 *  - a switch that only refuses the fibril (off the run list, TASK_DEAD)
 *    leaves the machine running on whatever the overflow overwrote: the
 *    write succeeds with "refused 1", and the test fails;
 *  - without the exercise, the fibril runs; the self-test puts the magic back
 *    as the switch ends, before interrupts are on, and notes that it ran, so
 *    the write fails with EIO and nothing crashes.
 *
 * Before arming, a normal run must pass. Armed, the test repeats corrupt=1
 * 600 times beside a busy process on the same CPU: on a kernel without the
 * exercise, a preemption right after the overwritten fibril is switched in
 * reaches __schedule(), whose own check panics with another message unless
 * the self-test repaired the magic in time. (A self-test that put it back
 * only once schedule() had returned crashed the start tree about once in 300
 * runs.) If the kernel is still up after 600 runs, it did not panic: the test
 * says so and fails.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include "fibril_selftest.h"

int main(void)
{
	int i, refused = 0, ran = 0, odd = 0;
	cpu_set_t cpu0;
	struct report r;
	pid_t busy;
	long ret;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	ret = selftest_run("fibrils=3 switches=1000", &r);
	REQUIRE(ret > 0 && !strcmp(r.result, "ok"), "a normal run passes before the test arms");

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	REQUIRE(sched_setaffinity(0, sizeof(cpu0), &cpu0) == 0, "pin to CPU 0");
	busy = fork();
	REQUIRE(busy >= 0, "fork a busy process");
	if (busy == 0)
		for (;;)
			;	/* inherits the CPU 0 affinity */

	printf("panic-test: armed\n");
	fflush(stdout);
	for (i = 0; i < 600; i++) {
		ret = selftest_run(i % 2 ? "fibrils=2 switches=50 corrupt=1" :
				   "fibrils=5 switches=200 corrupt=1", &r);
		if (ret == -EIO)
			ran++;
		else if (ret > 0 && r.refused == 1)
			refused++;
		else
			odd++;
	}
	kill(busy, SIGKILL);
	waitpid(busy, NULL, 0);
	printf("600 runs with an overwritten stack end: the fibril ran %d times, was refused %d times, other %d\n",
	       ran, refused, odd);
	CHECK(0, "the kernel panicked before switching to a fibril whose stack end was overwritten");
	return labtest_done();
}
