/*
 * wait4_target (Lab 3 exercise): an exit wakes the one fibril that waits for that child.
 *
 * The writer forks N children that exit one after another, then runs the
 * self-test's "mode=wait4 fibrils=N main=sleep": fibril i sleeps in
 * kernel_wait4() for child i (odd fibrils with __WNOTHREAD).
 *
 * Behaviour checked: every fibril reaps its own child, and the run takes at most
 * 4 fibril switches per child. A wake-up that reaches every waiting fibril (each
 * then runs only to find its child alive, and sleeps again) costs about N*N/2
 * extra switches, 102 instead of about 36 for 12 children, and fails the bound.
 * A fibril that is never woken at all hangs in do_wait(): the watchdog ends the
 * test after 100 s with a line that says so.
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "fibril_selftest.h"

#define NR_CHILDREN	12
#define SWITCHES_PER_CHILD	4	/* targeted: ~3; task-directed: ~N/2 more */

/* Fork n children; child k sleeps first_ms + k * step_ms, then exits. */
/* A lost wake-up leaves a fibril asleep in do_wait() for ever: say so, and fail (exit 1). */
static void on_watchdog(int sig)
{
	static const char msg[] = "FAIL: watchdog: the wait4 self-test did not end in 100 s: "
				  "expected every child reaped, got a fibril still asleep in do_wait() "
				  "(a wake-up that did not reach its wake target?)\n";
	ssize_t n = write(1, msg, sizeof(msg) - 1);

	(void)sig;
	(void)n;
	_exit(1);
}

static void fork_sleepers(pid_t *pids, int n, int first_ms, int step_ms)
{
	for (int k = 0; k < n; k++) {
		pids[k] = fork();
		REQUIRE(pids[k] >= 0, "fork child %d%s%s", k, pids[k] < 0 ? ": " : "",
			pids[k] < 0 ? strerror(errno) : "");
		if (pids[k] == 0) {
			struct timespec t = { 0, (first_ms + k * step_ms) * 1000000L };

			while (t.tv_nsec >= 1000000000L) {
				t.tv_sec++;
				t.tv_nsec -= 1000000000L;
			}
			nanosleep(&t, NULL);
			_exit(0);
		}
	}
}

int main(void)
{
	pid_t pids[NR_CHILDREN];
	struct report r;
	char line[64];
	long ret, bound;

	/* SIG_IGN would make the kernel reap the children before wait4 sees them */
	signal(SIGCHLD, SIG_DFL);
	signal(SIGALRM, on_watchdog);
	alarm(100);	/* a lost wake-up hangs a fibril in do_wait(): fail, do not hang */

	/* fewer children than fibrils is refused before any fibril starts */
	ret = selftest_run("mode=wait4 fibrils=2", &r);
	CHECK(ret == -ECHILD, "mode=wait4 with no children gives ECHILD (got %ld)", ret);

	fork_sleepers(pids, NR_CHILDREN, 150, 40);
	snprintf(line, sizeof(line), "mode=wait4 fibrils=%d main=sleep", NR_CHILDREN);
	ret = selftest_run(line, &r);
	CHECK(ret == (long)strlen(line), "write(\"%s\") returns its length (got %ld)", line, ret);
	CHECK(!strcmp(r.result, "ok") && r.checks_failed == 0,
	      "  report: result %s, checks_failed %ld, status %ld", r.result,
	      r.checks_failed, r.status);
	CHECK(r.wakeups == NR_CHILDREN, "  every fibril reaped its own child (%ld of %d)",
	      r.wakeups, NR_CHILDREN);
	bound = SWITCHES_PER_CHILD * NR_CHILDREN;
	CHECK(r.switches <= bound,
	      "  %ld fibril switches for %d exits (at most %ld: each exit must wake only "
	      "the fibril that waits for that child)", r.switches, NR_CHILDREN, bound);
	for (int k = 0; k < NR_CHILDREN; k++)
		CHECK(waitpid(pids[k], NULL, WNOHANG) < 0 && errno == ECHILD,
		      "  child %d (pid %d) was reaped by its fibril", k, pids[k]);
	return labtest_done();
}
