/*
 * asys_churn: 2,000 submit/await round trips of mixed calls, every cookie seen exactly
 * once, and afterwards nothing left behind: KernelStack: is back to its
 * baseline (a fibril stack not freed at completion would add 8 kB per leak), and VmRSS
 * is printed before and after.
 *
 * Round trip i does one of:
 *   0  getpid                       inline; return_code = our pid
 *   1  [read(pipe, 1), write(pipe, "x")]   the read blocks, the write in the same batch
 *                                          completes it
 *   2  [write(pipe, "x"), read(pipe, 1)]   nothing blocks
 *   3  read(pipe, 1) pending, then main write()s the byte itself
 */
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define ROUNDS 2000
#define MAX_COOKIES (2 * ROUNDS + 2)

static unsigned char seen[MAX_COOKIES];
static long want[MAX_COOKIES];		/* the return_code each cookie's call must give */
static unsigned long next_cookie = 1;
static int bad_cookies, bad_rc;

static unsigned long new_cookie(long expected_rc)
{
	want[next_cookie] = expected_rc;
	return next_cookie++;
}

/* await n completions, checking each cookie and return_code */
static void collect(int n)
{
	struct asys_completion c;
	int i;

	for (i = 0; i < n; i++) {
		long r = asys_await_completion(&c);

		if (r != 1) {
			printf("await returned %ld (errno %s) with %d completion(s) missing\n", r,
			       r < 0 ? asys_errname(errno) : "-", n - i);
			bad_rc++;
			return;
		}
		if (c.cookie == 0 || c.cookie >= next_cookie || seen[c.cookie]++) {
			if (bad_cookies++ < 5)
				printf("unexpected cookie %lu (%s)\n", c.cookie,
				       c.cookie && c.cookie < next_cookie ? "seen before" : "never submitted");
			continue;
		}
		if (c.return_code != want[c.cookie] && bad_rc++ < 5)
			printf("cookie %lu: return_code %ld, want %ld\n", c.cookie, c.return_code, want[c.cookie]);
	}
}

int main(void)
{
	int fds[2], i, missing = 0, dups = 0;
	char rbuf[4], vm0[64] = "?", vm1[64] = "?";
	unsigned long rargs[3], wargs[3];
	struct asys_input reqs[2];
	struct asys_completion c;
	long base, now, peak = 0, r;
	double t0;

	asys_watchdog(120);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	rargs[0] = fds[0];
	rargs[1] = (unsigned long)rbuf;
	rargs[2] = 1;
	wargs[0] = fds[1];
	wargs[1] = (unsigned long)"x";
	wargs[2] = 1;

	base = kernel_stack_kb();
	REQUIRE(base > 0, "KernelStack: baseline %ld kB", base);
	status_field(0, "VmRSS:", vm0, sizeof(vm0));

	t0 = asys_now_ms();
	for (i = 0; i < ROUNDS; i++) {
		rbuf[0] = 0;
		switch (i % 4) {
		case 0:
			asys_watchdog_step = "getpid round trip";
			asys_req(&reqs[0], SYS_getpid, new_cookie(getpid()), NULL, 0);
			r = asys_submit(reqs, 1);
			break;
		case 1:
			asys_watchdog_step = "[read, write] round trip";
			asys_req(&reqs[0], SYS_read, new_cookie(1), rargs, 3);
			asys_req(&reqs[1], SYS_write, new_cookie(1), wargs, 3);
			r = asys_submit(reqs, 2);
			break;
		case 2:
			asys_watchdog_step = "[write, read] round trip";
			asys_req(&reqs[0], SYS_write, new_cookie(1), wargs, 3);
			asys_req(&reqs[1], SYS_read, new_cookie(1), rargs, 3);
			r = asys_submit(reqs, 2);
			break;
		default:
			asys_watchdog_step = "read pending, main writes";
			asys_req(&reqs[0], SYS_read, new_cookie(1), rargs, 3);
			r = asys_submit(reqs, 1);
			if (r == 1 && write(fds[1], "x", 1) != 1)
				bad_rc++;
			break;
		}
		if (r != (i % 4 == 1 || i % 4 == 2 ? 2 : 1)) {
			CHECK(0, "round trip %d: asys_submit started all its requests (returned %ld, errno %s)",
			      i, r, r < 0 ? asys_errname(errno) : "-");
			close(fds[1]);	/* EOF ends a read left pending; collect what there is */
			while (asys_await_completion(&c) == 1)
				;
			return labtest_done();
		}
		if (i % 500 == 3) {	/* a round trip 3: one read pending on its fibril */
			now = kernel_stack_kb();
			peak = now > peak ? now : peak;
		}
		collect(r);
		if (i % 4 && rbuf[0] != 'x' && bad_rc++ < 5)
			printf("round trip %d: the read did not deliver the byte\n", i);
		if (i % 500 == 499)
			printf("%d round trips, %.0f ms\n", i + 1, asys_now_ms() - t0);
	}
	CHECK(i == ROUNDS, "%d round trips done in %.0f ms", i, asys_now_ms() - t0);

	asys_watchdog_step = "the end: nothing left";
	for (i = 1; i < (int)next_cookie; i++) {
		missing += seen[i] == 0;
		dups += seen[i] > 1;
	}
	CHECK(missing == 0 && dups == 0 && bad_cookies == 0,
	      "every one of the %lu cookies seen exactly once (missing %d, twice or more %d, unknown %d)",
	      next_cookie - 1, missing, dups, bad_cookies);
	CHECK(bad_rc == 0, "every return_code was right (%d wrong)", bad_rc);

	now = kernel_stack_settle_within(base, KSTACK_ONE_STACK_KB, 15);
	CHECK(now <= base + KSTACK_ONE_STACK_KB,
	      "KernelStack back to its baseline: %ld kB, baseline %ld kB (slack %d kB, sampled peak %ld kB)",
	      now, base, KSTACK_ONE_STACK_KB, peak);
	status_field(0, "VmRSS:", vm1, sizeof(vm1));
	printf("VmRSS before %s, after %s\n", vm0, vm1);
	close(fds[1]);
	close(fds[0]);
	return labtest_done();
}
