/*
 * fibril_status (Lab 2 exercise 1): /proc/PID/status shows a task's fibrils.
 *
 *   Fibrils:         the fibrils the task has now, its main chain included;
 *                    0 if it never used fibrils
 *   FibrilSwitches:  fibril switches the task has performed
 *
 * Checked here:
 *  - a self-test run raises the thread's FibrilSwitches by exactly the
 *    "switches" of the run's report;
 *  - a thread running "fibrils=4 spin_ms=400", seen from another thread
 *    through /proc/self/task/TID/status, shows "Fibrils: 5" (4 + its main
 *    chain) at some point, and "Fibrils: 1" afterwards: the task keeps its
 *    main chain's struct fibril until it exits. A loaded host may keep the
 *    polling thread off the CPU for a whole run: the run is repeated (up to
 *    25 times) until it saw 5;
 *  - a child forked by a fibril-using process starts with 0 and 0.
 *
 * Without the exercise the lines are missing and the test fails at once.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "fibril_selftest.h"

#define RUNS 25

static volatile long worker_tid;
static volatile int worker_go, worker_ran, worker_may_exit;	/* runs asked, done */
static volatile long worker_ret;

/* a thread's /proc/self/task/TID/status field as a number, or -1 if missing */
static long task_field(long tid, const char *key)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			v = atol(line + strlen(key));
			break;
		}
	fclose(f);
	return v;
}

static void *worker(void *arg)
{
	struct report r;

	worker_tid = syscall(SYS_gettid);
	for (;;) {
		/* main reads our Fibrils: before the first run, not during it */
		while (worker_go == worker_ran && !worker_may_exit)
			usleep(1000);
		if (worker_may_exit)
			return NULL;
		worker_ret = selftest_run("fibrils=4 spin_ms=400", &r);
		worker_ran++;
	}
}

int main(void)
{
	long me = syscall(SYS_gettid), before, after, seen5 = 0, polls = 0, max = -1, v, bad_ret = 0;
	int status, runs, bad_runs = 0;
	struct report r;
	pthread_t t;
	pid_t child;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	before = task_field(me, "FibrilSwitches:");
	REQUIRE(before >= 0, "/proc/self/task/%ld/status has a FibrilSwitches: line (expected a count; "
		"got %s)", me, before < 0 ? "no such line" : "a count");
	REQUIRE(task_field(me, "Fibrils:") >= 0, "... and a Fibrils: line (expected a count; got no such line)");

	CHECK(selftest_run("fibrils=3 switches=1000", &r) > 0 && !strcmp(r.result, "ok"),
	      "a self-test run (%s, %ld switches)", r.result, r.switches);
	after = task_field(me, "FibrilSwitches:");
	CHECK(after - before == r.switches, "FibrilSwitches went from %ld to %ld: +%ld, the report says %ld",
	      before, after, after - before, r.switches);
	CHECK(task_field(me, "Fibrils:") == 1, "after the run this thread has 1 fibril (its main chain)");

	REQUIRE(pthread_create(&t, NULL, worker, NULL) == 0, "start a thread running fibrils=4 spin_ms=400");
	while (!worker_tid)
		usleep(1000);
	CHECK(task_field(worker_tid, "Fibrils:") == 0, "the new thread has Fibrils: 0 before its run (got %ld)",
	      task_field(worker_tid, "Fibrils:"));
	for (runs = 1; runs <= RUNS && !seen5; runs++) {
		worker_go++;
		while (worker_ran != worker_go) {
			v = task_field(worker_tid, "Fibrils:");
			polls++;
			if (v == 5)
				seen5++;
			if (v > max)
				max = v;
			usleep(5 * 1000);
		}
		if (worker_ret <= 0) {
			bad_runs++;
			bad_ret = worker_ret;
		}
	}
	runs--;
	CHECK(bad_runs == 0, "the thread's runs succeeded (expected > 0 each; %d of %d runs gave "
	      "another value, the last %ld)", bad_runs, runs, bad_ret);
	CHECK(seen5 > 0, "Fibrils: 5 during a run: expected it seen, got it in %ld of %ld polls "
	      "over %d run(s) of at most %d (max %ld)", seen5, polls, runs, RUNS, max);
	CHECK(task_field(worker_tid, "Fibrils:") == 1, "after its run the thread has Fibrils: 1 (got %ld)",
	      task_field(worker_tid, "Fibrils:"));
	CHECK(task_field(worker_tid, "FibrilSwitches:") > 0, "and FibrilSwitches: %ld",
	      task_field(worker_tid, "FibrilSwitches:"));
	worker_may_exit = 1;
	pthread_join(t, NULL);

	child = fork();
	REQUIRE(child >= 0, "fork()");
	if (child == 0) {
		long c = syscall(SYS_gettid);

		_exit(task_field(c, "Fibrils:") == 0 && task_field(c, "FibrilSwitches:") == 0 ? 0 : 1);
	}
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a child forked by a fibril-using process starts with Fibrils: 0 and FibrilSwitches: 0");
	return labtest_done();
}
