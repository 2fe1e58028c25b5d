/*
 * asys_fault: what asys does with pointers it cannot use (asys-abi.md).
 *
 *   submit:  nr_requests 0 -> 0 (nothing is read, requests may be NULL); requests or a
 *            request's args unreadable -> EFAULT; a batch whose second request is
 *            unreadable starts the first only (returns 1, one completion); args NULL
 *            with nr_args 0 is fine; nr_args 6 is accepted.
 *   await:   comp unwritable (PROT_READ page, NULL) -> EFAULT, and the completion stays
 *            queued: the next await with a good pointer returns it.
 */
#include <sys/mman.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static void expect_efault(const char *what, int nr, unsigned long *args, unsigned long nr_args)
{
	int err;
	long r = asys_submit1(nr, 0xbad, args, nr_args, &err);

	CHECK(r == -1 && err == EFAULT, "%s: -1/EFAULT (got %ld, errno %s)", what, r,
	      r == -1 ? asys_errname(err) : "-");
	if (r > 0)
		asys_collect(r);
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE), r;
	struct asys_input req, *edge;
	struct asys_completion c;
	int err, timed_out;
	char *two, *ro;

	asys_watchdog(30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	/* two pages: the first readable, the second PROT_NONE */
	two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok = two != MAP_FAILED && mprotect(two + page, page, PROT_NONE) == 0;
	REQUIRE(ok, "mmap a page followed by a PROT_NONE page");
	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(ro != MAP_FAILED, "mmap a PROT_READ page");

	asys_watchdog_step = "nr_requests 0";
	asys_req(&req, SYS_getpid, 1, asys_noargs, 0);
	r = asys_submit(&req, 0);
	CHECK(r == 0, "nr_requests 0 returns 0 (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_submit(NULL, 0);
	CHECK(r == 0, "nr_requests 0 with requests NULL returns 0 too: nothing is read (got %ld)", r);

	asys_watchdog_step = "EFAULT";
	r = asys_submit((struct asys_input *)(two + page), 1);
	CHECK(r == -1 && errno == EFAULT, "requests on a PROT_NONE page: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_submit(NULL, 1);
	CHECK(r == -1 && errno == EFAULT, "requests NULL: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	expect_efault("args on a PROT_NONE page", SYS_getpid, (unsigned long *)(two + page), 1);
	expect_efault("args straddling into a PROT_NONE page", SYS_getpid,
		      (unsigned long *)(two + page - sizeof(long)), 2);
	expect_efault("args NULL with nr_args 1", SYS_getpid, NULL, 1);

	/* request 1 readable at the end of the page, request 2 in the PROT_NONE page */
	asys_watchdog_step = "a batch running into a PROT_NONE page";
	edge = (struct asys_input *)(two + page) - 1;
	asys_req(edge, SYS_getpid, 42, asys_noargs, 0);
	r = asys_submit(edge, 2);
	CHECK(r == 1, "2 requests, the second unreadable: 1 started (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 42, "its completion is the first request's (await %ld, cookie %lu)", r, c.cookie);
	r = asys_timed_await(&c, 200, &timed_out, 30);
	CHECK(r != 1, "and there is no second completion (await %ld%s)", r, timed_out ? ", timer ended the wait" : "");

	asys_watchdog_step = "args NULL with nr_args 0";
	r = asys_submit1(SYS_getpid, 43, NULL, 0, &err);
	CHECK(r == 1, "args NULL with nr_args 0 is fine: there is nothing to read (got %ld, errno %d)", r, err);
	CHECK(r != 1 || (asys_await_completion(&c) == 1 && c.cookie == 43 && c.return_code == getpid()),
	      "its completion arrives");
	r = asys_submit1(SYS_getpid, 44, asys_noargs, ASYS_MAX_ARGS, &err);
	CHECK(r == 1, "nr_args 6 is accepted (got %ld, errno %d)", r, err);
	CHECK(r != 1 || (asys_await_completion(&c) == 1 && c.cookie == 44), "its completion arrives");

	asys_watchdog_step = "await EFAULT";
	r = asys_submit1(SYS_getpid, 0x77, asys_noargs, 0, &err);
	REQUIRE(r == 1, "submit getpid (cookie 0x77)");
	r = asys_await_completion((struct asys_completion *)ro);
	CHECK(r == -1 && errno == EFAULT, "await into a PROT_READ page: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_await_completion(NULL);
	CHECK(r == -1 && errno == EFAULT, "await into NULL: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_await_completion((struct asys_completion *)(two + page - 4));
	CHECK(r == -1 && errno == EFAULT, "await straddling into a PROT_NONE page: EFAULT (got %ld, errno %d)",
	      r, r < 0 ? errno : 0);
	memset(&c, 0, sizeof(c));
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 0x77 && c.return_code == getpid(),
	      "the completion was not lost: await returns it afterwards (got %ld, cookie 0x%lx, return_code %ld)",
	      r, c.cookie, c.return_code);
	return labtest_done();
}
