/*
 * asys_overlap: calls that block wait side by side, each on its own fibril.
 *
 * Three 300 ms nanosleeps in ONE asys_submit: submit returns 3 at once, the three
 * completions (cookies 1, 2, 3, return_code 0 each) all arrive about 300 ms later, far
 * from the 900 ms the calls would take one after the other (checked: < 700 ms).
 *
 * The sleep is nanosleep, i386 call 162 (sys_nanosleep_time32), with the 32-bit timespec
 * spelled out in asys.h (struct asys_timespec32): that layout is what call 162 reads,
 * whatever glibc's struct timespec is in this build.
 */
#include "labtest.h"
#include "asys.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define N 3
#define SLEEP_MS 300

int main(void)
{
	struct asys_input reqs[N];
	struct asys_timespec32 ts[N];
	unsigned long args[N][2];
	struct asys_completion c;
	int seen[N + 1] = { 0 }, i, got = 0;
	double t0, t_submit, t_last = 0;
	long r;

	asys_watchdog(20);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	for (i = 0; i < N; i++)
		asys_sleep_req(&reqs[i], i + 1, SLEEP_MS, &ts[i], args[i]);

	asys_watchdog_step = "submit three sleeps";
	t0 = asys_now_ms();
	r = asys_submit(reqs, N);
	t_submit = asys_now_ms() - t0;
	REQUIRE(r == N, "asys_submit started all %d sleeps (returned %ld, errno %d)", N, r, r < 0 ? errno : 0);
	CHECK(t_submit < 50, "asys_submit returned at once: %.2f ms", t_submit);

	asys_watchdog_step = "await three sleep completions";
	for (i = 0; i < N; i++) {
		r = asys_await_completion(&c);
		if (r != 1) {
			CHECK(r == 1, "await %d returned 1 (returned %ld, errno %d)", i + 1, r, r < 0 ? errno : 0);
			break;
		}
		t_last = asys_now_ms() - t0;
		printf("t=%6.1f ms  completion: cookie %lu, return_code %ld\n", t_last, c.cookie, c.return_code);
		CHECK(c.return_code == 0, "sleep with cookie %lu returned 0 (got %ld)", c.cookie, c.return_code);
		if (c.cookie >= 1 && c.cookie <= N)
			seen[c.cookie]++;
		else
			CHECK(0, "cookie %lu is one we submitted", c.cookie);
		got++;
	}
	CHECK(got == N, "%d completions arrived", got);
	for (i = 1; i <= N; i++)
		CHECK(seen[i] == 1, "cookie %d seen exactly once (%d)", i, seen[i]);
	printf("total: %d sleeps of %d ms (%d ms one after the other) took %.1f ms\n",
	       N, SLEEP_MS, N * SLEEP_MS, t_last);
	CHECK(t_last >= SLEEP_MS - 5, "the sleeps really slept: %.1f ms >= %d ms", t_last, SLEEP_MS);
	CHECK(t_last < 700, "they overlapped: %.1f ms < 700 ms (900 ms if run one after the other)", t_last);

	return labtest_done();
}
