/*
 * asys_bad_args (exercise 2): asys_submit checks the request before it starts anything.
 *
 *   syscall_nr < 0 or not a system call of this kernel (-1, INT_MIN, the first number
 *   past the table, 500, 1000, 100000) -> -1/ENOSYS; so is every hole of the i386 table
 *   (the 29 numbers below 453 that syscall_32.tbl gives no entry point: all share
 *   sys_ni_syscall); nr_args > 6
 *   (7, ULONG_MAX) -> -1/EINVAL; nr_args 6 accepted.
 *   "When a request is rejected, nothing after it is started: the return value is the
 *   count started before it": a batch of 5 whose request 3 is bad returns 2, exactly
 *   2 completions arrive and requests 4 and 5 (writes) never ran.
 * A call this kernel was built without (acct, mq_open, bpf, io_setup, msgctl here: its
 * table entry is a COND_SYSCALL stub, not sys_ni_syscall) is a system call of the i386
 * ABI that this kernel answers with ENOSYS: it is started, and completes with what the
 * same call made synchronously returns, -ENOSYS (docs/asys-abi.md). The synchronous
 * call is the oracle, whatever the kernel's configuration.
 * The first number past the table is where the synchronous call gives ENOSYS
 * (asys_first_unused_nr()): 453 on Lab 4's kernel, 455 on Lab 8's, which adds two calls.
 * Nothing here blocks, so a kernel that accepts a bad request only gives a completion
 * (which the test collects): it fails cleanly.
 * Contract: a bad syscall_nr gives ENOSYS and a bad nr_args EINVAL from asys_submit
 *   itself, before anything of the request is allocated or started; a batch returns the
 *   count started before its first bad request, and starts nothing after it.
 */
#include <limits.h>
#include <sys/ioctl.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static void expect_reject(const char *what, int nr, unsigned long *args, unsigned long nr_args, int want)
{
	struct asys_completion c;
	int err;
	long r = asys_submit1(nr, 0xbad, args, nr_args, &err);

	CHECK(r == -1 && err == want, "%s: -1/%s (got %ld, errno %s)", what, asys_errname(want),
	      r, r == -1 ? asys_errname(err) : "-");
	if (r == 1 && asys_await_completion(&c) == 1)
		printf("  (the request was started; it completed with return_code %ld)\n", c.return_code);
}

/* a batch of 5 whose request 3 is bad: returns 2, only requests 1 and 2 ran */
static void batch_stops_at(const char *what, int nr, unsigned long *args, unsigned long nr_args)
{
	struct asys_input reqs[5];
	struct asys_completion c;
	unsigned long wargs[3];
	int fds[2], n = 0, right = 1, avail = -1, i;
	long r;

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	wargs[0] = fds[1];
	wargs[1] = (unsigned long)"x";
	wargs[2] = 1;
	asys_req(&reqs[0], SYS_getpid, 1, asys_noargs, 0);
	asys_req(&reqs[1], SYS_getpid, 2, asys_noargs, 0);
	asys_req(&reqs[2], nr, 3, args, nr_args);
	asys_req(&reqs[3], SYS_write, 4, wargs, 3);
	asys_req(&reqs[4], SYS_write, 5, wargs, 3);
	r = asys_submit(reqs, 5);
	CHECK(r == 2, "batch of 5 with request 3 bad (%s): returns 2 (got %ld, errno %d)", what, r, r < 0 ? errno : 0);
	/* every request of this batch finishes at once: collect what was started */
	for (i = 0; i < (r > 0 ? r : 0) && asys_await_completion(&c) == 1; i++) {
		n++;
		if (c.cookie != 1 && c.cookie != 2)
			right = 0;
	}
	CHECK(n == 2 && right, "exactly 2 completions arrived, cookies 1 and 2 (%d, %s)", n,
	      right ? "right cookies" : "WRONG cookies");
	ioctl(fds[0], FIONREAD, &avail);
	CHECK(avail == 0, "requests 4 and 5 (writes) were not started: the pipe is empty (%d bytes)", avail);
	close(fds[0]);
	close(fds[1]);
}

/*
 * The holes of 6.1's i386 table: numbered without an entry point (17 break ... 273
 * vserver), and never numbered (222, 223, 251, 285, 387-392, 415). A check of the
 * bounds alone starts them all; they complete with -ENOSYS, which is why only the
 * submit can tell "not a system call" from "a call that failed".
 */
static const int holes[] = {
	17, 31, 32, 35, 44, 53, 56, 58, 98, 112, 127, 130, 137, 167, 169, 188, 189, 273,
	222, 223, 251, 285, 387, 388, 389, 390, 391, 392, 415,
};

/*
 * Calls a kernel may be built without, each with arguments that change nothing where it
 * is built in: acct(NULL) (accounting off), mq_open(NULL) (EFAULT), bpf(0, NULL, 0),
 * io_setup(0, NULL) (EINVAL), msgctl(-1, IPC_STAT, NULL) (EINVAL).
 */
static const struct { int nr; const char *name; long a0, a1; } maybe_built_without[] = {
	{ 51, "acct", 0, 0 }, { 277, "mq_open", 0, 0 }, { 357, "bpf", 0, 0 },
	{ 245, "io_setup", 0, 0 }, { 402, "msgctl", -1, 2 },
};

/* asys and the synchronous call agree on a call the kernel may be built without */
static int built_without(int i)
{
	unsigned long args[3] = { maybe_built_without[i].a0, maybe_built_without[i].a1, 0 };
	const char *name = maybe_built_without[i].name;
	struct asys_completion c = { 0, 0 };
	long sync, r;
	int err, sync_errno;

	errno = 0;
	sync = syscall(maybe_built_without[i].nr, args[0], args[1], args[2]);
	sync_errno = errno;
	r = asys_submit1(maybe_built_without[i].nr, 0xc0de, args, 3, &err);
	CHECK(r == 1 && asys_await_completion(&c) == 1 &&
	      c.return_code == (sync == -1 ? -sync_errno : sync),
	      "%s (%d): started, and completes as the synchronous call returns (sync: %ld/%s; "
	      "submit %ld/%s, return_code %ld)", name, maybe_built_without[i].nr, sync,
	      sync == -1 ? asys_errname(sync_errno) : "-", r, r == -1 ? asys_errname(err) : "-",
	      c.return_code);
	return sync == -1 && sync_errno == ENOSYS;
}

int main(void)
{
	int nosys[] = { -1, INT_MIN, 0 /* the table's end */, 500, 1000, 100000 };
	unsigned long args7[7] = { 0 };
	struct asys_completion c;
	unsigned int i;
	int err, n;
	long r;

	asys_watchdog(30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	asys_watchdog_step = "ENOSYS";
	nosys[2] = asys_first_unused_nr();
	for (i = 0; i < sizeof(nosys) / sizeof(nosys[0]); i++) {
		char what[48];

		snprintf(what, sizeof(what), "syscall_nr %d", nosys[i]);
		expect_reject(what, nosys[i], asys_noargs, 0, ENOSYS);
	}

	asys_watchdog_step = "holes in the table";
	for (i = 0; i < sizeof(holes) / sizeof(holes[0]); i++) {
		char what[48];

		snprintf(what, sizeof(what), "syscall_nr %d (a hole)", holes[i]);
		expect_reject(what, holes[i], asys_noargs, 0, ENOSYS);
	}
	batch_stops_at("syscall_nr 222, a hole", 222, asys_noargs, 0);

	asys_watchdog_step = "calls this kernel was built without";
	n = 0;
	for (i = 0; i < sizeof(maybe_built_without) / sizeof(maybe_built_without[0]); i++)
		n += built_without(i);
	CHECK(n > 0, "this kernel is built without %d of them: the rule for a configured-out "
	      "call is exercised", n);

	asys_watchdog_step = "nr_args";
	expect_reject("nr_args 7", SYS_getpid, args7, 7, EINVAL);
	expect_reject("nr_args ULONG_MAX", SYS_getpid, args7, ULONG_MAX, EINVAL);
	r = asys_submit1(SYS_getpid, 44, asys_noargs, ASYS_MAX_ARGS, &err);
	CHECK(r == 1, "nr_args 6 is accepted (got %ld, errno %d)", r, err);
	CHECK(r != 1 || (asys_await_completion(&c) == 1 && c.cookie == 44), "its completion arrives");

	asys_watchdog_step = "a rejected request stops the batch";
	batch_stops_at("nr_args 7", SYS_getpid, args7, 7);
	batch_stops_at("syscall_nr -1", -1, asys_noargs, 0);
	batch_stops_at("syscall_nr 100000", 100000, asys_noargs, 0);
	return labtest_done();
}
