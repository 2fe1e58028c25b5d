/*
 * cachemiss_yield: "only a call that blocks moves the user context". A call that calls
 * schedule() without going to sleep (sched_yield(): the task stays runnable) has not
 * blocked: as the synchronous call would, it runs on as soon as the CPU is back, and
 * asys_submit() returns after it. Counted, never timed:
 *
 *   1. asys sched_yield: submitted, completed with 0, and the moves counter does not move.
 *   2. A batch [sched_yield, getpid]: no move, and the completions come in submission
 *      order: the yield ended before the getpid started, as in a synchronous program.
 *   3. For contrast, a read of an empty pipe does block, and moves the user context once.
 */
#include "labtest.h"
#include "asys_test.h"
#include "cachemiss.h"

static int ok;

int main(void)
{
	struct asys_input reqs[2];
	struct asys_completion c[2];
	unsigned long args[3];
	int p[2], err;
	char b;
	long m0, r;

	asys_watchdog(30);
	asys_watchdog_hook = cachemiss_restore;
	ok = asys_present() && cachemiss_on() == 0 && cachemiss_moves() >= 0;
	REQUIRE(ok, "a kernel with asys in cachemiss mode (kernel.asys_cachemiss=1)");
	ok = pipe(p) == 0;
	REQUIRE(ok, "pipe()");

	asys_watchdog_step = "1: sched_yield";
	m0 = cachemiss_moves();
	r = asys_submit1(SYS_sched_yield, 1, NULL, 0, &err);
	CHECK(r == 1, "asys_submit(sched_yield) returned 1 (returned %ld)", r);
	CHECK(cachemiss_moves() == m0, "a yield is not a block: no move (got %ld moves)", cachemiss_moves() - m0);
	r = asys_await_completion(&c[0]);
	CHECK(r == 1 && c[0].cookie == 1 && c[0].return_code == 0,
	      "its completion: cookie 1, 0 (got cookie %lu, %ld)", c[0].cookie, c[0].return_code);

	asys_watchdog_step = "2: a batch [sched_yield, getpid]";
	m0 = cachemiss_moves();
	asys_req(&reqs[0], SYS_sched_yield, 10, NULL, 0);
	asys_req(&reqs[1], SYS_getpid, 11, NULL, 0);
	r = asys_submit(reqs, 2);
	CHECK(r == 2, "both submitted (returned %ld)", r);
	CHECK(cachemiss_moves() == m0, "no move for the batch (got %ld moves)", cachemiss_moves() - m0);
	r = asys_await_completion(&c[0]) == 1 && asys_await_completion(&c[1]) == 1;
	CHECK(r && c[0].cookie == 10 && c[1].cookie == 11,
	      "the yield completes before the getpid, as the synchronous calls would (expected cookies 10, 11; got %lu, %lu)",
	      c[0].cookie, c[1].cookie);

	asys_watchdog_step = "3: a read that blocks";
	m0 = cachemiss_moves();
	args[0] = p[0];
	args[1] = (unsigned long)&b;
	args[2] = 1;
	r = asys_submit1(SYS_read, 20, args, 3, &err);
	CHECK(r == 1 && cachemiss_moves() == m0 + 1, "a read of an empty pipe blocks: one move (returned %ld, got %ld moves)",
	      r, cachemiss_moves() - m0);
	ok = write(p[1], "x", 1) == 1;
	REQUIRE(ok, "write a byte");
	CHECK(asys_collect(1) == 1, "the read completes");
	return labtest_done();
}
