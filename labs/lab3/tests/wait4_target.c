/*
 * wait4_target (Lab 3 exercise): an exit wakes the one fibril that waits for that child.
 *
 * The writer forks N children that wait on a release pipe, then runs the
 * self-test's "mode=wait4 fibrils=N main=sleep": fibril i sleeps in
 * kernel_wait4() for child i (odd fibrils with __WNOTHREAD). A releaser thread
 * lets the children go one at a time, each only once the writer is asleep
 * (every fibril in do_wait()) and the previous child is reaped. Children on
 * timers would not do: on a slow host they could all be zombies before the
 * run starts, no fibril would ever sleep, and a kernel that wakes every
 * fibril would pass.
 *
 * Behaviour checked: every fibril reaps its own child, and the run takes at most
 * 4 fibril switches per child. A wake-up that reaches every waiting fibril (each
 * then runs only to find its child alive, and sleeps again) costs about N*N/2
 * extra switches, 102 instead of about 36 for 12 children, and fails the bound.
 * A fibril that is never woken at all hangs in do_wait(): the watchdog ends the
 * test after 100 s with a line that says so.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "fibril_selftest.h"
#include "procwait.h"

#define NR_CHILDREN	12
#define SWITCHES_PER_CHILD	4	/* targeted: ~3; task-directed: ~N/2 more */

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

static int release[2];	/* a byte lets one child exit */
static pid_t pids[NR_CHILDREN];

/* Fork n children that each exit once they read a byte (or EOF) from release[0]. */
static void fork_waiters(int n)
{
	for (int k = 0; k < n; k++) {
		pids[k] = fork();
		REQUIRE(pids[k] >= 0, "fork child %d%s%s", k, pids[k] < 0 ? ": " : "",
			pids[k] < 0 ? strerror(errno) : "");
		if (pids[k] == 0) {
			char c;

			close(release[1]);
			_exit(read(release[0], &c, 1) < 0);
		}
	}
	close(release[0]);
}

/* The writer's "Fibrils:" count (its main chain included): above 1 while the run is on. */
static long fibrils_of(pid_t pid)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Fibrils: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static int children_left(void)
{
	int left = 0;

	for (int k = 0; k < NR_CHILDREN; k++)
		left += proc_state(pids[k]) != 0;
	return left;
}

static volatile int run_over;

/*
 * The releaser: one child at a time, each when the run is on (the writer has
 * fibrils), the writer sleeps (so every fibril sleeps in do_wait()) and the
 * child before it has been reaped. No step is timed: a child that is never
 * reaped is the watchdog's business.
 */
static void *releaser(void *arg)
{
	pid_t writer = *(pid_t *)arg;

	for (int k = 0; k < NR_CHILDREN && !run_over; k++) {
		while (!run_over && (children_left() != NR_CHILDREN - k || fibrils_of(writer) <= 1 ||
				     proc_state(writer) != 'S'))
			usleep(1000);
		if (run_over || write(release[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

int main(void)
{
	pid_t writer = getpid();
	pthread_t rel;
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

	REQUIRE(pipe(release) == 0, "pipe() for the release of the children");
	fork_waiters(NR_CHILDREN);
	REQUIRE(pthread_create(&rel, NULL, releaser, &writer) == 0, "pthread_create() of the releaser");
	snprintf(line, sizeof(line), "mode=wait4 fibrils=%d main=sleep", NR_CHILDREN);
	ret = selftest_run(line, &r);
	run_over = 1;
	pthread_join(rel, NULL);
	close(release[1]);	/* EOF lets any child still waiting go */
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
