/*
 * asys_threads: completions belong to the thread that submitted; a fork()ed child
 * inherits neither pending calls nor completions.
 *
 *   1. Threads A and B each submit [gettid, read on their own empty pipe] with their own
 *      cookies. Main writes B's pipe: B collects its 2 completions, and its next await
 *      completion is its own marker getpid although A still has a call pending.
 *      A's await meanwhile keeps blocking: B's completions never reach it. Main writes
 *      A's pipe: A collects exactly its own 2. gettid's return_code is the submitting
 *      thread's tid: the call ran in that thread's context.
 *   2. Main submits [getpid (left uncollected), read on an empty pipe (pending)], then
 *      forks. The child's first completion is its own getpid, not the parent's uncollected
 *      one, and nothing else arrives for it (no completion inherited).
 *      The parent's read still completes after the child is gone.
 */
#include <pthread.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

struct worker {
	const char *name;
	unsigned long base;		/* cookies base+1 (gettid), base+2 (read) */
	int fds[2];
	char buf[8];
	long tid, submitted, last;
	int n;
	struct asys_completion comp[8];
	int done;			/* set (atomically) when the worker's await returned 0 */
};

static pthread_barrier_t submitted;

static void *worker(void *arg)
{
	struct worker *w = arg;
	struct asys_input reqs[2];
	unsigned long rargs[3], noargs[1] = { 0 };
	struct asys_completion c;
	long r;

	w->tid = syscall(SYS_gettid);
	rargs[0] = w->fds[0];
	rargs[1] = (unsigned long)w->buf;
	rargs[2] = 4;
	asys_req(&reqs[0], SYS_gettid, w->base + 1, noargs, 0);
	asys_req(&reqs[1], SYS_read, w->base + 2, rargs, 3);
	w->submitted = asys_submit(reqs, 2);
	pthread_barrier_wait(&submitted);
	while (w->n < 2 && (r = asys_await_completion(&c)) == 1)
		w->comp[w->n++] = c;
	/* a marker of our own: the next completion this thread sees must be it */
	asys_req(&reqs[0], SYS_getpid, w->base + 3, noargs, 0);
	w->last = -1;
	if (asys_submit(reqs, 1) == 1 && asys_await_completion(&c) == 1)
		w->last = c.cookie;
	__atomic_store_n(&w->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void check_worker(struct worker *w)
{
	int i, got_tid = 0, got_read = 0;

	CHECK(w->submitted == 2, "thread %s started its 2 requests (returned %ld)", w->name, w->submitted);
	CHECK(w->n == 2, "thread %s collected exactly 2 completions (%d)", w->name, w->n);
	for (i = 0; i < w->n; i++) {
		struct asys_completion *c = &w->comp[i];

		if (c->cookie == w->base + 1)
			got_tid += c->return_code == w->tid;
		else if (c->cookie == w->base + 2)
			got_read += c->return_code == 4 && memcmp(w->buf, w->name[0] == 'A' ? "aaaa" : "bbbb", 4) == 0;
		else
			CHECK(0, "thread %s got cookie 0x%lx, which is not its own", w->name, c->cookie);
	}
	CHECK(got_tid == 1, "thread %s: gettid through asys returned its own tid %ld", w->name, w->tid);
	CHECK(got_read == 1, "thread %s: its read returned 4 with its own bytes", w->name);
	CHECK(w->last == (long)(w->base + 3), "thread %s: then its own marker call is the next completion (cookie 0x%lx)",
	      w->name, w->last);
}

static void threads(void)
{
	struct worker a = { .name = "A", .base = 0xA000 }, b = { .name = "B", .base = 0xB000 };
	pthread_t ta, tb;
	double t0;

	ok = pipe(a.fds) == 0 && pipe(b.fds) == 0;
	REQUIRE(ok, "two pipes");
	pthread_barrier_init(&submitted, NULL, 3);
	ok = pthread_create(&ta, NULL, worker, &a) == 0 && pthread_create(&tb, NULL, worker, &b) == 0;
	REQUIRE(ok, "start threads A and B");
	pthread_barrier_wait(&submitted);
	usleep(100 * 1000);	/* both are in await now */
	CHECK(!__atomic_load_n(&a.done, __ATOMIC_SEQ_CST) && !__atomic_load_n(&b.done, __ATOMIC_SEQ_CST),
	      "both threads wait for their reads");

	asys_watchdog_step = "thread B collects its read";
	ok = write(b.fds[1], "bbbb", 4) == 4;
	REQUIRE(ok, "main writes B's pipe");
	pthread_join(tb, NULL);
	t0 = asys_now_ms();
	usleep(200 * 1000);
	CHECK(!__atomic_load_n(&a.done, __ATOMIC_SEQ_CST),
	      "thread B is done; %.0f ms later thread A still waits: B's completions did not reach it",
	      asys_now_ms() - t0);

	asys_watchdog_step = "thread A collects its read";
	ok = write(a.fds[1], "aaaa", 4) == 4;
	REQUIRE(ok, "main writes A's pipe");
	pthread_join(ta, NULL);
	check_worker(&a);
	check_worker(&b);
	pthread_barrier_destroy(&submitted);
}

static void fork_child(void)
{
	int fds[2], status;
	char buf[4] = "";
	unsigned long rargs[3], noargs[1] = { 0 };
	struct asys_input reqs[2];
	struct asys_completion c;
	int got_pid = 0, got_read = 0, n = 0;
	pid_t child;
	long r;

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	rargs[0] = fds[0];
	rargs[1] = (unsigned long)buf;
	rargs[2] = 1;
	asys_req(&reqs[0], SYS_getpid, 0xF1, noargs, 0);
	asys_req(&reqs[1], SYS_read, 0xF2, rargs, 3);
	r = asys_submit(reqs, 2);
	REQUIRE(r == 2, "parent: getpid (uncollected) and a read (pending) started (returned %ld)", r);

	fflush(stdout);
	child = fork();
	if (child < 0)
		REQUIRE(child >= 0, "fork()");
	if (child == 0) {
		int bad = 0;
		double t0 = asys_now_ms();

		alarm(30);	/* the parent's alarm is not inherited; the handler is */
		int timed_out;

		asys_watchdog_step = "the forked child's await";
		asys_req(&reqs[0], SYS_getpid, 0xC1, noargs, 0);
		r = asys_submit(reqs, 1);
		if (r != 1 || asys_await_completion(&c) != 1 || c.return_code != getpid()) {
			printf("child: its own getpid through asys failed (submit %ld)\n", r);
			bad |= 2;
		} else if (c.cookie != 0xC1) {
			printf("child: first completion has cookie 0x%lx, not its own 0xC1\n", c.cookie);
			bad |= 1;
		}
		/* 0 (nothing left), or our timer ending the wait: never a completion */
		r = asys_timed_await(&c, 300, &timed_out, 5);
		if (r == 1) {
			printf("child: an inherited completion arrived (cookie 0x%lx)\n", c.cookie);
			bad |= 1;
		}
		(void)t0;
		fflush(stdout);
		_exit(bad);
	}
	asys_watchdog_step = "waiting for the forked child";
	ok = waitpid(child, &status, 0) == child;
	REQUIRE(ok, "waitpid(child)");
	CHECK(WIFEXITED(status) && (WEXITSTATUS(status) & 1) == 0,
	      "the child inherited no completion and none of the parent's calls completed in it");
	CHECK(WIFEXITED(status) && (WEXITSTATUS(status) & 6) == 0, "asys works normally in the child");
	CHECK(!WIFSIGNALED(status), "the child did not die of a signal (%d)", WIFSIGNALED(status) ? WTERMSIG(status) : 0);

	asys_watchdog_step = "the parent's pending read";
	ok = write(fds[1], "p", 1) == 1;
	REQUIRE(ok, "parent writes its pipe");
	while (n < 2 && asys_await_completion(&c) == 1) {
		n++;
		got_pid += c.cookie == 0xF1 && c.return_code == getpid();
		got_read += c.cookie == 0xF2 && c.return_code == 1 && buf[0] == 'p';
	}
	CHECK(n == 2 && got_pid == 1 && got_read == 1,
	      "the parent still gets both its completions: getpid = %d and its read (%d completions)", getpid(), n);
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	asys_watchdog(30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	asys_watchdog_step = "two threads";
	threads();
	asys_watchdog_step = "fork";
	fork_child();
	return labtest_done();
}
