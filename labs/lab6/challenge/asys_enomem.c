/*
 * asys_enomem (the Lab 6 challenge's hidden test): asys_submit when memory runs out.
 * /sys/kernel/debug/fibrils/asys_fail reads "countdown N" (0: off) and "injected N"
 * (failures injected since boot); a write of N makes the N-th request from now that
 * passes its checks find no memory for its fibril, once, and 0 disarms. The ABI says a
 * request that cannot get memory fails with ENOMEM, the requests before it in the batch
 * stay submitted, and nothing of the failed one is left behind. Counted, never timed:
 *
 *   1. countdown 1: a request with 7 arguments is still EINVAL and leaves the countdown
 *      at 1 (a rejected request never gets as far as its fibril); then one getpid fails
 *      with ENOMEM, one failure injected, the countdown back at 0, and nothing is
 *      pending (await returns 0 at once);
 *   2. countdown 3, a batch of 4 getpid: 2 submitted, both complete with the pid, then
 *      nothing is pending;
 *   3. countdown 2, a batch [read of an empty pipe, getpid]: 1 submitted, the read
 *      blocks and completes with the byte written afterwards, then nothing is pending;
 *   4. the limit of pending calls is whole after the failures: kernel.asys_max_pending
 *      calls can be started at once, and the next one is EAGAIN;
 *   5. the kernel stacks come back (KernelStack); a write of 0 disarms a countdown of 5
 *      (6 getpid are then submitted); a write of -1 or of a word is refused with EINVAL.
 */
#include <fcntl.h>
#include <stdio.h>
#include "labtest.h"
#include "asys_test.h"
#include "kstack.h"

#define FAIL_FILE "/sys/kernel/debug/fibrils/asys_fail"
#define MAX_PENDING_SYSCTL "/proc/sys/kernel/asys_max_pending"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static int read_fail(long *countdown, long *injected)
{
	return read_counter_pair(FAIL_FILE, "countdown", "injected", countdown, injected);
}

/* nothing_pending(): await returns 0 at once (a completion left over says which). */
static int nothing_pending(void)
{
	struct asys_completion c;
	long r = asys_await_completion(&c);

	if (r == 1)
		printf("  a completion nobody submitted: cookie %lu, return %ld\n", c.cookie,
		       c.return_code);
	return r == 0;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int main(void)
{
	struct asys_input reqs[4];
	struct asys_completion c;
	unsigned long rargs[3];
	long countdown, injected, injected0, r, baseline, kb, max_pending, started;
	int p[2], i, err;
	char byte = 0;

	asys_watchdog(120);
	ok = read_fail(&countdown, &injected0) == 0;
	REQUIRE(ok, "%s reads \"countdown N\" and \"injected N\"%s", FAIL_FILE,
		ok ? "" : access(FAIL_FILE, F_OK) ? " (got no such file)" : " (got a file without both)");
	ok = pipe(p) == 0;
	REQUIRE(ok, "a pipe");
	baseline = kernel_stack_baseline();

	asys_watchdog_step = "1: one getpid, no memory for it";
	err = write_text(FAIL_FILE, "1");
	REQUIRE(err == 0, "writing 1 arms the countdown (got errno %d)", err);
	r = asys_submit1(SYS_getpid, 1, NULL, 7, &err);
	ok = read_fail(&countdown, &injected) == 0;
	CHECK(r == -1 && err == EINVAL && ok && countdown == 1 && injected == injected0,
	      "a request with 7 arguments is EINVAL and spends nothing (got %ld, errno %s; countdown %ld, %ld injected)",
	      r, r < 0 ? asys_errname(err) : "none", countdown, injected - injected0);
	r = asys_submit1(SYS_getpid, 1, NULL, 0, &err);
	CHECK(r == -1 && err == ENOMEM, "asys_submit fails with ENOMEM (got %ld, errno %s)", r,
	      r < 0 ? asys_errname(err) : "none");
	ok = read_fail(&countdown, &injected) == 0;
	CHECK(ok && countdown == 0 && injected == injected0 + 1,
	      "one failure injected and the countdown spent (got countdown %ld, %ld injected)",
	      countdown, injected - injected0);
	CHECK(nothing_pending(), "the failed request left nothing pending: await returns 0");

	asys_watchdog_step = "2: a batch of 4 getpid, the third without memory";
	for (i = 0; i < 4; i++)
		asys_req(&reqs[i], SYS_getpid, 10 + i, NULL, 0);
	err = write_text(FAIL_FILE, "3");
	REQUIRE(err == 0, "writing 3 arms the countdown (got errno %d)", err);
	r = asys_submit(reqs, 4);
	CHECK(r == 2, "the batch stops at the request that failed: 2 submitted (got %ld)", r);
	for (i = 0; i < 2 && asys_await_completion(&c) == 1; i++)
		CHECK(c.cookie == 10 + (unsigned long)i && c.return_code == getpid(),
		      "completion %d: cookie %lu, the pid (want %d, got %ld)", i, c.cookie, getpid(),
		      c.return_code);
	CHECK(i == 2, "both submitted requests completed (got %d)", i);
	CHECK(nothing_pending(), "then nothing is pending: await returns 0");

	asys_watchdog_step = "3: a read that blocks, then a getpid without memory";
	rargs[0] = p[0], rargs[1] = (unsigned long)&byte, rargs[2] = 1;
	asys_req(&reqs[0], SYS_read, 20, rargs, 3);
	asys_req(&reqs[1], SYS_getpid, 21, NULL, 0);
	err = write_text(FAIL_FILE, "2");
	REQUIRE(err == 0, "writing 2 arms the countdown (got errno %d)", err);
	r = asys_submit(reqs, 2);
	CHECK(r == 1, "the read submitted, the getpid failed: 1 (got %ld)", r);
	ok = write(p[1], "x", 1) == 1;
	REQUIRE(ok, "write a byte to the pipe");
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 20 && c.return_code == 1 && byte == 'x',
	      "the read completes with the byte (got %ld: cookie %lu, return %ld, '%c')", r,
	      c.cookie, c.return_code, byte ? byte : '?');
	CHECK(nothing_pending(), "then nothing is pending: await returns 0");

	asys_watchdog_step = "4: the pending limit is whole";
	max_pending = read_long(MAX_PENDING_SYSCTL);
	REQUIRE(max_pending > 0 && max_pending <= 4096, "kernel.asys_max_pending (got %ld)",
		max_pending);
	for (started = 0; started < max_pending; started++)
		if (asys_submit1(SYS_getpid, 100 + started, NULL, 0, &err) != 1)
			break;
	CHECK(started == max_pending, "%ld calls start at once after the failures (got %ld, errno %s)",
	      max_pending, started, started < max_pending ? asys_errname(err) : "none");
	r = asys_submit1(SYS_getpid, 99, NULL, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "and the next one is EAGAIN (got %ld, errno %s)", r,
	      r < 0 ? asys_errname(err) : "none");
	CHECK(asys_collect(started) == started, "all %ld of them are collected", started);
	CHECK(nothing_pending(), "then nothing is pending: await returns 0");

	asys_watchdog_step = "5: stacks back, disarm, bad values";
	kb = kernel_stack_settle_within(baseline, KSTACK_ONE_STACK_KB, 15);	/* freed through RCU: may take seconds */
	CHECK(kb <= baseline + KSTACK_ONE_STACK_KB,
	      "KernelStack back to its baseline: %ld kB, at most %ld + %d", kb, baseline,
	      KSTACK_ONE_STACK_KB);
	err = write_text(FAIL_FILE, "5");
	REQUIRE(err == 0, "writing 5 arms the countdown (got errno %d)", err);
	err = write_text(FAIL_FILE, "0");
	ok = read_fail(&countdown, &injected) == 0;
	CHECK(err == 0 && ok && countdown == 0, "a write of 0 disarms it (got errno %d, countdown %ld)",
	      err, countdown);
	for (started = 0; started < 6; started++)
		if (asys_submit1(SYS_getpid, 30 + started, NULL, 0, &err) != 1)
			break;
	CHECK(started == 6, "then 6 getpid are all submitted (got %ld, errno %s)", started,
	      started < 6 ? asys_errname(err) : "none");
	CHECK(asys_collect(started) == started, "and collected");
	err = write_text(FAIL_FILE, "-1");
	CHECK(err == EINVAL, "a write of -1 is refused with EINVAL (errno %d)", err);
	err = write_text(FAIL_FILE, "many");
	CHECK(err == EINVAL, "a write of a word is refused with EINVAL (errno %d)", err);
	ok = read_fail(&countdown, &injected) == 0;
	CHECK(ok && injected == injected0 + 3, "3 failures injected in all (got %ld)",
	      injected - injected0);
	return labtest_done();
}
