/*
 * fibril_threads: fibrils are per task. Four threads of one process run the
 * self-test at the same time, again and again, while the main thread plays
 * pipe ping-pong with a child process (ordinary sleeps and wake-ups, which
 * must not be disturbed by the fibril switching next door). On -smp 2 the
 * threads also migrate between CPUs in the middle of runs, so the per-cpu
 * stack pointers (TSS sp1, cpu_current_top_of_stack) are checked after
 * migrations too. Every run must pass and KernelStack: must come back.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include "fibril_selftest.h"

#define THREADS 4
#define ROUNDS 6

struct result {
	int offset, runs, ok, joined;
	long switches;
};

static void *worker(void *arg)
{
	struct result *res = arg;
	static const char *const lines[] = {
		"fibrils=3 switches=3000", "fibrils=16 switches=2000",
		"fibrils=1 switches=500", "fibrils=8 spin_ms=100",
	};
	int i;

	for (i = 0; i < ROUNDS; i++) {
		const char *line = lines[(i + res->offset) % 4];
		struct report r;
		long ret = selftest_run(line, &r);

		res->runs++;
		if (ret == (long)strlen(line) && !strcmp(r.result, "ok") && r.checks_failed == 0)
			res->ok++;
		else
			printf("run \"%s\": write %ld, result %s, checks_failed %ld\n",
			       line, ret, r.result, r.checks_failed);
		res->switches += r.switches;
	}
	return NULL;
}

int main(void)
{
	int to_child[2], to_parent[2], i, status;
	struct result res[THREADS] = { { 0 } };
	pthread_t t[THREADS];
	long base, after, pings = 0;
	pid_t child;

	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	base = kernel_stack_baseline();
	REQUIRE(pipe(to_child) == 0 && pipe(to_parent) == 0, "pipes");
	fflush(stdout);
	child = fork();
	if (child == 0) {
		char c;

		close(to_child[1]);	/* or read() below never sees EOF */
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	REQUIRE(child > 0, "fork() a ping-pong child");
	close(to_child[0]);
	close(to_parent[1]);

	/* staggered starts, so the threads' runs overlap in different ways */
	for (i = 0; i < THREADS; i++) {
		res[i].offset = i;
		REQUIRE(pthread_create(&t[i], NULL, worker, &res[i]) == 0, "thread %d starts", i);
	}

	/* ping-pong until every worker is done */
	for (;;) {
		char c = 'p';
		int busy = 0;

		if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1 || c != 'p')
			break;
		pings++;
		for (i = 0; i < THREADS; i++) {
			if (!res[i].joined && pthread_tryjoin_np(t[i], NULL) == 0)
				res[i].joined = 1;
			busy += !res[i].joined;
		}
		if (!busy)
			break;
	}
	close(to_child[1]);
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the ping-pong child exits normally");
	CHECK(pings > 0, "%ld pipe round trips while the threads ran fibrils", pings);
	for (i = 0; i < THREADS; i++)
		CHECK(res[i].runs == ROUNDS && res[i].ok == ROUNDS,
		      "thread %d: %d/%d runs ok, %ld fibril switches", i, res[i].ok, res[i].runs,
		      res[i].switches);

	after = kernel_stack_settle(base);
	CHECK(after == base, "KernelStack: %ld kB after, %ld kB before", after, base);
	return labtest_done();
}
