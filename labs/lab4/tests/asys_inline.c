/*
 * asys_inline: "a call that does not block runs to the end at once, on this CPU", and
 * completions come in the order the calls finished.
 *
 *   1. A batch [getpid, gettid, write(pipe, "abc"), read(pipe, 3), getppid]: nothing
 *      blocks, so all five have finished when asys_submit returns 5: the read finds the
 *      bytes the write of the same batch put there, and the five completions come in
 *      submission order with the right return codes.
 *   2. [nanosleep 200 ms, getpid]: the sleep blocks, getpid finishes first: the
 *      completions come getpid first, then the sleep about 200 ms later.
 */
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

int main(void)
{
	struct asys_input reqs[5];
	struct asys_completion c;
	struct asys_timespec32 ts;
	unsigned long wargs[3], rargs[3], sargs[2];
	long want[5];
	char buf[4] = "";
	int fds[2], i, in_order = 1, right = 1;
	double t0;
	long r;

	asys_watchdog(20);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");

	asys_watchdog_step = "1: a batch where nothing blocks";
	wargs[0] = fds[1];
	wargs[1] = (unsigned long)"abc";
	wargs[2] = 3;
	rargs[0] = fds[0];
	rargs[1] = (unsigned long)buf;
	rargs[2] = 3;
	asys_req(&reqs[0], SYS_getpid, 0, NULL, 0);
	asys_req(&reqs[1], SYS_gettid, 1, NULL, 0);
	asys_req(&reqs[2], SYS_write, 2, wargs, 3);
	asys_req(&reqs[3], SYS_read, 3, rargs, 3);
	asys_req(&reqs[4], SYS_getppid, 4, NULL, 0);
	want[0] = getpid();
	want[1] = syscall(SYS_gettid);
	want[2] = 3;
	want[3] = 3;
	want[4] = getppid();
	r = asys_submit(reqs, 5);
	REQUIRE(r == 5, "asys_submit started all 5 (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(memcmp(buf, "abc", 3) == 0, "when submit returned, the read had already run (\"%.3s\")", buf);
	for (i = 0; i < 5; i++) {
		r = asys_await_completion(&c);
		if (r != 1) {
			CHECK(r == 1, "await %d returned 1 (returned %ld)", i, r);
			break;
		}
		if (c.cookie != (unsigned long)i)
			in_order = 0;
		if (c.cookie < 5 && c.return_code != want[c.cookie]) {
			printf("cookie %lu: return_code %ld, want %ld\n", c.cookie, c.return_code, want[c.cookie]);
			right = 0;
		}
	}
	CHECK(in_order, "the completions came in submission order, the order they finished");
	CHECK(right, "each had the right return_code");

	asys_watchdog_step = "2: a sleep, then a getpid";
	asys_sleep_req(&reqs[0], 10, 200, &ts, sargs);
	asys_req(&reqs[1], SYS_getpid, 11, NULL, 0);
	t0 = asys_now_ms();
	r = asys_submit(reqs, 2);
	REQUIRE(r == 2, "asys_submit started both (returned %ld)", r);
	r = asys_await_completion(&c);
	/* the order is the proof: a submit that waited for the sleep would finish it first */
	CHECK(r == 1 && c.cookie == 11 && c.return_code == getpid(),
	      "getpid's completion comes first, before the sleep's (cookie %lu, %.1f ms)", c.cookie,
	      asys_now_ms() - t0);
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 10 && c.return_code == 0 && asys_now_ms() - t0 >= 195,
	      "then the sleep's, after 200 ms (cookie %lu, return_code %ld, %.1f ms)", c.cookie,
	      c.return_code, asys_now_ms() - t0);
	close(fds[0]);
	close(fds[1]);
	return labtest_done();
}
