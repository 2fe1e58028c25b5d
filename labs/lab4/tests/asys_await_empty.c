/*
 * asys_await_empty (exercise 1): asys_await_completion() "returns 0 at once when the
 * task has no call pending and no completion waiting" (the seed hangs there).
 *
 *   1. In a task that never submitted anything.
 *   2. After every completion was collected (a getpid and a read that blocked).
 *   3. In a new thread, while the main thread has a call pending: pending calls are
 *      per thread, so the thread has nothing to wait for.
 *   4. In a fork()ed child of a task with a call pending and a completion uncollected.
 * Each await runs under a 1 s timer (SIGALRM without SA_RESTART): a kernel that hangs
 * there fails the check instead of the whole test.
 */
#include <pthread.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

/*
 * await must return 0 without waiting: an await that waited is ended by our 1 s timer
 * and returns -1, so r == 0 is the whole check (how fast it returned is the host's
 * business, not the kernel's).
 */
static int await_is_empty(const char *where)
{
	struct asys_completion c;
	int timed_out;
	long r = asys_timed_await(&c, 1000, &timed_out, 30);
	int e = errno;

	CHECK(r == 0, "%s: await returns 0, nothing to wait for (returned %ld%s)",
	      where, r, r < 0 ? (timed_out ? ", our 1 s timer had to end the wait" : asys_errname(e)) : "");
	return r == 0;
}

static void *thread_fn(void *arg)
{
	long *r = arg;
	sigset_t alrm;

	/* main blocks SIGALRM meanwhile: our timer's signal must end our await */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);

	*r = await_is_empty("3: a new thread while main has a read pending");
	return NULL;
}

int main(void)
{
	struct asys_input reqs[2];
	struct asys_completion c;
	unsigned long rargs[3];
	char buf[4];
	int fds[2], status = -1;
	long tr = 0, r;
	pthread_t t;
	sigset_t alrm;
	pid_t child;

	asys_watchdog(30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	asys_watchdog_step = "1: never submitted";
	await_is_empty("1: nothing ever submitted");

	asys_watchdog_step = "2: all collected";
	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	rargs[0] = fds[0];
	rargs[1] = (unsigned long)buf;
	rargs[2] = 1;
	asys_req(&reqs[0], SYS_getpid, 1, NULL, 0);
	asys_req(&reqs[1], SYS_read, 2, rargs, 3);
	r = asys_submit(reqs, 2);
	REQUIRE(r == 2, "submit [getpid, read on an empty pipe] (returned %ld)", r);
	ok = write(fds[1], "x", 1) == 1;
	REQUIRE(ok, "write the byte the read waits for");
	CHECK(asys_collect(2) == 2, "both completions collected");
	await_is_empty("2: everything collected");

	asys_watchdog_step = "3: a thread";
	r = asys_submit(&reqs[1], 1);
	REQUIRE(r == 1, "main: a read on the empty pipe is pending");
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	ok = pthread_create(&t, NULL, thread_fn, &tr) == 0;
	REQUIRE(ok, "pthread_create");
	pthread_join(t, NULL);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);

	asys_watchdog_step = "4: a forked child";
	r = asys_submit(&reqs[0], 1);
	REQUIRE(r == 1, "main: a getpid left uncollected as well");
	fflush(stdout);
	child = fork();
	REQUIRE(child >= 0, "fork()");
	if (child == 0)
		_exit(await_is_empty("4: a forked child of a task with a call pending") ? 0 : 1);
	CHECK(asys_reap_within(child, &status, 20000) && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child found nothing to wait for (expected exit 0, got status 0x%x)", status);

	asys_watchdog_step = "the end: collect the parent's calls";
	ok = write(fds[1], "y", 1) == 1;
	REQUIRE(ok, "write the byte the pending read waits for");
	CHECK(asys_collect(2) == 2, "the parent's read and getpid complete");
	await_is_empty("5: everything collected again");
	(void)c;
	close(fds[0]);
	close(fds[1]);
	return labtest_done();
}
