/*
 * fibril_kill: SIGKILL ends a task that is running fibrils, promptly and
 * cleanly. A child starts a long self-test (spin_ms=60000); the parent waits
 * until KernelStack: shows the child's fibril stacks, so the run is really
 * under way, and kills it. Each fibril notices the fatal signal the next
 * time it comes back from schedule() and returns; the main chain waits until
 * all are reaped and the write fails with EINTR, so the child dies with no
 * fibril left behind: well before the run would have ended by itself (within
 * 30 s, half the run, however loaded the host), with KernelStack: back to its
 * value before.
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "fibril_selftest.h"

#define SETTLE_S 30	/* stacks are freed through RCU: a starved guest is slow at it */
#define KILLED_S 30.0	/* the run ends by itself after 60 s */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void kill_one(int nr, long base)
{
	char line[64];
	int p[2], status = 0;
	long start, need, during;
	double t0, dt;
	pid_t child;
	char c;

	/* the previous round's stacks gone, so only this round's can meet "need" */
	start = kernel_stack_settle_within(base, 0, SETTLE_S);
	need = start + 8 * (nr + 1);	/* nr fibril stacks and the child's own */
	snprintf(line, sizeof(line), "fibrils=%d spin_ms=60000", nr);
	REQUIRE(pipe(p) == 0, "pipe()");
	child = fork();
	REQUIRE(child >= 0, "fork()");
	if (child == 0) {
		struct report r;

		write(p[1], "go", 1);
		selftest_run(line, &r);
		_exit(3);	/* only reached if the run ended by itself */
	}
	CHECK(read(p[0], &c, 1) == 1, "the child is about to start \"%s\"", line);
	/* no time bound: a run that ends (in 60 s, or at once on an error) stops the wait */
	while ((during = kernel_stack_kb()) < need &&
	       waitpid(child, &status, WNOHANG) == 0)
		usleep(2 * 1000);
	if (during < need) {
		CHECK(0, "%d fibril stacks exist: expected KernelStack >= %ld kB, got %ld kB "
		      "until the child ended by itself (status %#x)", nr, need, during, status);
		goto out;
	}
	CHECK(1, "%d fibril stacks exist: KernelStack %ld kB (>= %ld, was %ld)", nr, during, need,
	      start);
	t0 = now();
	kill(child, SIGKILL);
	CHECK(waitpid(child, &status, 0) == child, "waitpid()");
	dt = now() - t0;
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child died of SIGKILL (status %#x)",
	      status);
	CHECK(dt < KILLED_S, "it died %.3f s after the signal (expected < %.0f s: before the run "
	      "would have ended by itself)", dt, KILLED_S);
out:
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	long base, after;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	base = kernel_stack_baseline();
	kill_one(1, base);
	kill_one(8, base);
	kill_one(64, base);
	after = kernel_stack_settle_within(base, 0, SETTLE_S);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
