/*
 * poll_target (the Lab 4 challenge's hidden test): a file that becomes ready wakes the
 * one call that polls it, not every call of the task.
 *
 * Twelve poll() calls, then twelve select() calls, run through asys, each waiting on
 * a pipe of its own. A child process then makes the pipes ready one at a time, and
 * waits for the parent to collect that pipe's completion before it writes the next.
 *
 *   1. the synchronous call is the oracle: each asys poll() returns 1 with revents
 *      POLLIN, each asys select() returns 1 with its own fd set, as they would made
 *      synchronously on the same ready pipe; the completions come back in the order
 *      the pipes became ready;
 *   2. the cost: every write may make only its own poller runnable. The task may make
 *      at most 4 fibril switches per pipe (FibrilSwitches: in /proc/self/status), 48
 *      for 12 pipes. When a ready pipe wakes the whole task, every poller still asleep
 *      runs, finds its own pipe empty and sleeps again: about N*N/2 switches more;
 *   3. a poll() whose timeout expires still returns 0 at its end, as synchronously.
 */
#include <poll.h>
#include <sys/select.h>
#include "labtest.h"
#include "asys_test.h"

#define NR_PIPES		12
#define SWITCHES_PER_PIPE	4
#define MAX_SWITCHES		(NR_PIPES * SWITCHES_PER_PIPE)

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */
static int data[NR_PIPES][2];	/* the pipes the calls wait on */
static int go[2];	/* parent -> child: "make the next one ready" */

static struct pollfd pfd[NR_PIPES];
static fd_set readable[NR_PIPES];

/* submit_waiter(kind, i): one asys poll() or select() on pipe i, cookie i. */
static long submit_waiter(const char *kind, int i)
{
	unsigned long args[5];
	int err;

	if (kind[0] == 'p') {
		pfd[i].fd = data[i][0];
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
		args[0] = (unsigned long)&pfd[i];
		args[1] = 1;
		args[2] = (unsigned long)-1;	/* no timeout */
		return asys_submit1(SYS_poll, i, args, 3, &err);
	}
	FD_ZERO(&readable[i]);
	FD_SET(data[i][0], &readable[i]);
	args[0] = data[i][0] + 1;
	args[1] = (unsigned long)&readable[i];
	args[2] = 0;
	args[3] = 0;
	args[4] = 0;	/* no timeout */
	return asys_submit1(SYS__newselect, i, args, 5, &err);
}

/* writer(): the child: on each go-ahead byte, make the next pipe ready. */
static void writer(void)
{
	char c;
	int i;

	for (i = 0; i < NR_PIPES; i++) {
		if (read(go[0], &c, 1) != 1 || write(data[i][1], "x", 1) != 1)
			_exit(2);
	}
	_exit(0);
}

/* one_round(kind): 12 waiters, made ready one by one; returns the switches it took. */
static long one_round(const char *kind)
{
	static char step[96];
	struct asys_completion c;
	long before, after, r;
	int i, first_late = -1, right = 0, status;
	pid_t child;

	for (i = 0; i < NR_PIPES; i++) {
		ok = pipe(data[i]) == 0;
		REQUIRE(ok, "pipe() for waiter %d", i);
	}
	ok = pipe(go) == 0;
	REQUIRE(ok, "pipe() for the go-ahead");
	child = fork();
	REQUIRE(child >= 0, "fork() a writer (got %d)", (int)child);
	if (child == 0)
		writer();

	snprintf(step, sizeof(step), "%s: submit %d waiters", kind, NR_PIPES);
	asys_watchdog_step = step;
	for (i = 0; i < NR_PIPES; i++) {
		r = submit_waiter(kind, i);
		if (r != 1)
				REQUIRE(r == 1, "asys_submit(%s on empty pipe %d) started it (returned %ld, errno %d)",
				kind, i, r, r < 0 ? errno : 0);
	}
	before = status_number(0, "FibrilSwitches:");
	REQUIRE(before >= 0, "/proc/self/status has a FibrilSwitches: line (got %ld)", before);

	for (i = 0; i < NR_PIPES; i++) {
		snprintf(step, sizeof(step), "%s: pipe %d made ready, await its completion", kind, i);
		asys_watchdog_step = step;
		ok = write(go[1], "g", 1) == 1;
		if (!ok)
			REQUIRE(ok, "tell the writer to make pipe %d ready", i);
		r = asys_await_completion(&c);
		if (r != 1)
			REQUIRE(r == 1, "await returned pipe %d's completion (returned %ld, errno %d)",
				i, r, r < 0 ? errno : 0);
		if (c.cookie != (unsigned long)i && first_late < 0)
			first_late = i;
		if (c.cookie >= NR_PIPES)
			continue;
		if (kind[0] == 'p')
			right += c.return_code == 1 && pfd[c.cookie].revents == POLLIN;
		else
			right += c.return_code == 1 && FD_ISSET(data[c.cookie][0], &readable[c.cookie]);
	}
	after = status_number(0, "FibrilSwitches:");

	CHECK(first_late < 0, "%s: the completions came in the order the pipes became ready "
	      "(got the first out of order at completion %d of %d)", kind,
	      first_late < 0 ? NR_PIPES : first_late, NR_PIPES);
	CHECK(right == NR_PIPES,
	      "%s: as synchronously, each call returned 1 with its own pipe readable (%d of %d did)",
	      kind, right, NR_PIPES);
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the writer child made every pipe ready (got wait status 0x%x)", status);
	for (i = 0; i < NR_PIPES; i++) {
		close(data[i][0]);
		close(data[i][1]);
	}
	close(go[0]);
	close(go[1]);
	return after - before;
}

int main(void)
{
	struct pollfd idle[2];
	struct asys_completion c;
	unsigned long args[3];
	long switches, r;
	int err, quiet[2];
	const char *kinds[] = { "poll", "select" };
	int k;

	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	for (k = 0; k < 2; k++) {
		switches = one_round(kinds[k]);
		CHECK(switches <= MAX_SWITCHES,
		      "%s: %d pipes made ready one by one took at most %d fibril switches (got %ld)%s",
		      kinds[k], NR_PIPES, MAX_SWITCHES, switches,
		      switches <= MAX_SWITCHES ? "" :
		      "; about N*N/2 more means each ready pipe made every waiter still asleep "
		      "runnable: whom does the wake-up name?");
	}

	/* 3. a timeout still ends the wait, as synchronously: 0 ready after 50 ms */
	asys_watchdog_step = "poll with a 50 ms timeout";
	ok = pipe(quiet) == 0;
	REQUIRE(ok, "pipe() for the timeout");
	idle[0].fd = quiet[0];
	idle[0].events = POLLIN;
	idle[0].revents = 0;
	args[0] = (unsigned long)idle;
	args[1] = 1;
	args[2] = 50;
	r = asys_submit1(SYS_poll, 99, args, 3, &err);
	REQUIRE(r == 1, "asys_submit(poll with a 50 ms timeout) started it (returned %ld, errno %d)", r, err);
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 99 && c.return_code == 0,
	      "the timed-out poll completed with 0, as synchronously (await %ld, cookie %lu, return_code %ld)",
	      r, c.cookie, c.return_code);
	return labtest_done();
}
