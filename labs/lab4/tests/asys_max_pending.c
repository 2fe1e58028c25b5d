/*
 * asys_max_pending (exercise 3): "the task already has kernel.asys_max_pending calls
 * pending or uncollected (sysctl, documented default) -> EAGAIN".
 *
 * /proc/sys/kernel/asys_max_pending exists with the ABI's default, 256; lowered to 4, three
 * blocked reads and a batch of 2 start 1 and stop at the limit; the next submit, even
 * of a call that would not block, fails with EAGAIN; a completed but uncollected call
 * still counts; collecting one makes room for one. The sysctl is restored at the end
 * (also by the watchdog).
 */
#include <fcntl.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define MAX_PENDING_FILE "/proc/sys/kernel/asys_max_pending"
#define ASYS_DEFAULT_MAX_PENDING 256	/* docs/asys-abi.md: "default 256" */

/* --- kernel.asys_max_pending -------------------------------------------------- */

static char saved_max[32];	/* the sysctl's value as read, restored at exit */

static int write_max(const char *v)
{
	int fd = open(MAX_PENDING_FILE, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, v, strlen(v));
	close(fd);
	return n == (ssize_t)strlen(v) ? 0 : -1;
}

static void restore_max(void)
{
	if (saved_max[0])
		write_max(saved_max);	/* async-signal-safe: also the watchdog's hook */
}

static long read_max(void)
{
	char buf[32] = "";
	FILE *f = fopen(MAX_PENDING_FILE, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static void max_pending(void)
{
	enum { LIMIT = 4 };
	int fds[LIMIT][2], i, err;
	char bufs[LIMIT][4];
	unsigned long rargs[LIMIT][3];
	struct asys_input reqs[2];
	struct asys_completion c;
	long def, r;

	def = read_max();
	CHECK(def == ASYS_DEFAULT_MAX_PENDING, MAX_PENDING_FILE " exists and holds the ABI's default, %d (got %ld)",
	      ASYS_DEFAULT_MAX_PENDING, def);
	if (def <= 0)
		return;
	snprintf(saved_max, sizeof(saved_max), "%ld\n", def);
	atexit(restore_max);
	asys_watchdog_hook = restore_max;
	ok = write_max("4\n") == 0 && read_max() == LIMIT;
	REQUIRE(ok, "lower kernel.asys_max_pending to %d for this test", LIMIT);

	for (i = 0; i < LIMIT; i++) {
		ok = pipe(fds[i]) == 0;
		REQUIRE(ok, "pipe()");
		rargs[i][0] = fds[i][0];
		rargs[i][1] = (unsigned long)bufs[i];
		rargs[i][2] = sizeof(bufs[i]);
	}
	/* 3 blocked reads, then a batch of 2 that hits the limit after 1 */
	for (i = 0; i < 3; i++)
		CHECK(asys_submit1(SYS_read, 100 + i, rargs[i], 3, &err) == 1, "blocked read %d is pending", i + 1);
	asys_req(&reqs[0], SYS_read, 103, rargs[3], 3);
	asys_req(&reqs[1], SYS_getpid, 200, asys_noargs, 0);
	r = asys_submit(reqs, 2);
	CHECK(r == 1, "with 3 pending, a batch of 2 starts 1 and stops at the limit (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_submit1(SYS_read, 104, rargs[0], 3, &err);
	CHECK(r == -1 && err == EAGAIN, "4 calls pending: the next submit fails with EAGAIN (got %ld, errno %d)", r, err);
	r = asys_submit1(SYS_getpid, 201, asys_noargs, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "even a call that would not block: EAGAIN (got %ld, errno %d)", r, err);

	/* a completed but uncollected call still counts */
	ok = write(fds[0][1], "a", 1) == 1;
	REQUIRE(ok, "write to the first pipe");
	usleep(50 * 1000);
	r = asys_submit1(SYS_getpid, 202, asys_noargs, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "3 pending + 1 completed but uncollected: still EAGAIN (got %ld, errno %d)", r, err);
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 100 && c.return_code == 1,
	      "await collects the first read (returned %ld, cookie %lu, return_code %ld)", r, c.cookie, c.return_code);
	r = asys_submit1(SYS_getpid, 203, asys_noargs, 0, &err);
	CHECK(r == 1, "once it is collected, submission works again (returned %ld, errno %d)", r, err);
	r = asys_submit1(SYS_getpid, 204, asys_noargs, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "3 pending + 1 uncollected getpid: EAGAIN (got %ld, errno %d)", r, err);

	/* complete everything, then submission works again */
	for (i = 1; i < LIMIT; i++) {
		ok = write(fds[i][1], "b", 1) == 1;
		REQUIRE(ok, "write to pipe %d", i + 1);
	}
	for (i = 0; i < LIMIT; i++)
		close(fds[i][1]);	/* EOF: even a read the limit failed to stop must end */
	r = asys_drain();
	CHECK(r == 4, "the 3 reads and the getpid complete and are collected (%ld)", r);
	asys_req(&reqs[0], SYS_getpid, 205, asys_noargs, 0);
	asys_req(&reqs[1], SYS_getpid, 206, asys_noargs, 0);
	r = asys_submit(reqs, 2);
	CHECK(r == 2, "after completing them, submission works again (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(asys_drain() == 2, "and both complete");
	for (i = 0; i < LIMIT; i++)
		close(fds[i][0]);

	restore_max();
	CHECK(read_max() == def, "kernel.asys_max_pending restored to %ld", def);
	saved_max[0] = 0;
}

int main(void)
{
	asys_watchdog(30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	asys_watchdog_step = "EAGAIN at kernel.asys_max_pending";
	max_pending();
	return labtest_done();
}
