/*
 * fibril_kill: SIGKILL ends a task that is running fibrils, promptly and
 * cleanly. A child starts a long self-test (spin_ms=60000); the parent kills
 * it after 100 ms. Each fibril notices the fatal signal the next time it
 * comes back from schedule() and returns; the main chain waits until all are
 * reaped and the write fails with EINTR, so the child dies with no fibril
 * left behind: within 5 s, with KernelStack: back to its value before.
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "fibril_selftest.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void kill_one(int nr, long base)
{
	char line[64];
	int p[2], status;
	long during;
	double t0, dt;
	pid_t child;
	char c;

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
	usleep(100 * 1000);
	during = kernel_stack_kb();
	CHECK(during >= base + 8 * nr, "%d fibril stacks exist: KernelStack %ld kB (was %ld)",
	      nr, during, base);
	t0 = now();
	kill(child, SIGKILL);
	CHECK(waitpid(child, &status, 0) == child, "waitpid()");
	dt = now() - t0;
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child died of SIGKILL (status %#x)",
	      status);
	CHECK(dt < 5.0, "it died %.3f s after the signal (< 5 s)", dt);
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
	after = kernel_stack_settle(base);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
