/*
 * asys_overlap: calls that block wait side by side, each on its own fibril.
 *
 *   1. Reads on three empty pipes in ONE asys_submit: submit returns 3 (a submit
 *      that waited for the first read would hang here, and the watchdog names the
 *      step). Main then writes to the pipes in the reverse order, 3, 2, 1, and each
 *      write's read completes first, while the reads submitted before it still wait:
 *      completions arrive as cookies 3, 2, 1. Calls run one after the other could
 *      only finish in the order 1, 2, 3.
 *   2. Three 300 ms nanosleeps in one asys_submit: all three complete with
 *      return_code 0, cookies 1, 2, 3 once each, none before 300 ms. The total time
 *      (about 300 ms, against 900 ms one after the other) is printed as a figure for
 *      the log, not checked: a loaded host stretches it, and part 1 already proved
 *      the overlap by order.
 *
 * The sleep is nanosleep, i386 call 162 (sys_nanosleep_time32), with the 32-bit timespec
 * spelled out in asys.h (struct asys_timespec32): that layout is what call 162 reads,
 * whatever glibc's struct timespec is in this build.
 */
#include <sys/syscall.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define N 3
#define SLEEP_MS 300

static void reads_finish_in_write_order(void)
{
	struct asys_input reqs[N];
	unsigned long args[N][3];
	struct asys_completion c;
	char bufs[N][4] = { "" };
	int fds[N][2], i;
	long r;

	for (i = 0; i < N; i++) {
		ok = pipe(fds[i]) == 0;
		REQUIRE(ok, "pipe() %d", i + 1);
		args[i][0] = fds[i][0];
		args[i][1] = (unsigned long)bufs[i];
		args[i][2] = 1;
		asys_req(&reqs[i], SYS_read, i + 1, args[i], 3);
	}

	asys_watchdog_step = "1: submit three reads on empty pipes";
	r = asys_submit(reqs, N);
	REQUIRE(r == N, "1: asys_submit started all %d reads although each blocks (returned %ld, errno %d)",
		N, r, r < 0 ? errno : 0);

	asys_watchdog_step = "1: await each read after its pipe's write, last submitted first";
	for (i = N - 1; i >= 0; i--) {
		char byte = 'a' + i;

		ok = write(fds[i][1], &byte, 1) == 1;
		REQUIRE(ok, "1: write to pipe %d", i + 1);
		r = asys_await_completion(&c);
		REQUIRE(r == 1, "1: await returned 1 (returned %ld, errno %d)", r, r < 0 ? errno : 0);
		CHECK(c.cookie == (unsigned long)i + 1 && c.return_code == 1 && bufs[i][0] == byte,
		      "1: the read of pipe %d completed while %d earlier read(s) still waited "
		      "(cookie %lu, return_code %ld; want cookie %d, 1)",
		      i + 1, i, c.cookie, c.return_code, i + 1);
	}
	for (i = 0; i < N; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
}

static void sleeps_complete(void)
{
	struct asys_input reqs[N];
	struct asys_timespec32 ts[N];
	unsigned long args[N][2];
	struct asys_completion c;
	int seen[N + 1] = { 0 }, i, got = 0;
	double t0, t_first = 0, t_last = 0;
	long r;

	for (i = 0; i < N; i++)
		asys_sleep_req(&reqs[i], i + 1, SLEEP_MS, &ts[i], args[i]);

	asys_watchdog_step = "2: submit three sleeps";
	t0 = asys_now_ms();
	r = asys_submit(reqs, N);
	REQUIRE(r == N, "2: asys_submit started all %d sleeps (returned %ld, errno %d)", N, r, r < 0 ? errno : 0);

	asys_watchdog_step = "2: await three sleep completions";
	for (i = 0; i < N; i++) {
		r = asys_await_completion(&c);
		if (r != 1) {
			CHECK(r == 1, "2: await %d returned 1 (returned %ld, errno %d)", i + 1, r, r < 0 ? errno : 0);
			break;
		}
		t_last = asys_now_ms() - t0;
		if (!i)
			t_first = t_last;
		printf("t=%6.1f ms  completion: cookie %lu, return_code %ld\n", t_last, c.cookie, c.return_code);
		CHECK(c.return_code == 0, "2: sleep with cookie %lu returned 0 (got %ld)", c.cookie, c.return_code);
		if (c.cookie >= 1 && c.cookie <= N)
			seen[c.cookie]++;
		else
			CHECK(0, "2: cookie %lu is one we submitted", c.cookie);
		got++;
	}
	CHECK(got == N, "2: %d completions arrived", got);
	for (i = 1; i <= N; i++)
		CHECK(seen[i] == 1, "2: cookie %d seen exactly once (%d)", i, seen[i]);
	CHECK(t_first >= SLEEP_MS - 5, "2: the sleeps really slept: the first ended after %.1f ms >= %d ms",
	      t_first, SLEEP_MS);
	printf("figure: %d sleeps of %d ms (%d ms one after the other) took %.1f ms in all\n",
	       N, SLEEP_MS, N * SLEEP_MS, t_last);
}

int main(void)
{
	asys_watchdog(20);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	reads_finish_in_write_order();
	sleeps_complete();
	return labtest_done();
}
