/*
 * asys_io_flusher: PR_SET_IO_FLUSHER is an attribute of the task, and a call on a
 * fibril runs with the task's attributes, as the same call made synchronously would.
 *
 * prctl(PR_SET_IO_FLUSHER) sets PF_MEMALLOC_NOIO | PF_LOCAL_THROTTLE in task->flags.
 * Patch 2 keeps those bits per call chain (they are also memalloc scopes), so:
 *   1. set on a call's fibril, the setting would vanish when the call ends (and
 *      fibril_exit() warned about a scope left open): the call must fail with EINVAL,
 *      and the task must not have the attribute afterwards;
 *   2. set synchronously, a call started afterwards must see it
 *      (PR_GET_IO_FLUSHER through asys returns 1, as it does synchronously);
 *   3. cleared synchronously, a call sees 0 again.
 * The guest log must stay free of warnings (make check's kernel-health rule).
 */
#include <sys/prctl.h>
#include "labtest.h"
#include "asys_test.h"

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#define PR_GET_IO_FLUSHER 58
#endif
#define NR_prctl 172

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

/* one prctl through asys; returns the completion's return_code */
static long asys_prctl(unsigned long option, unsigned long arg2)
{
	unsigned long args[5] = { option, arg2, 0, 0, 0 };
	struct asys_completion c;
	int err;

	if (asys_submit1(NR_prctl, option, args, 5, &err) != 1) {
		printf("# asys_submit(prctl %lu) failed: %s\n", option, asys_errname(err));
		return -1000;
	}
	if (asys_await_completion(&c) != 1) {
		printf("# await for prctl %lu failed: errno %d\n", option, errno);
		return -1000;
	}
	return c.return_code;
}

int main(void)
{
	long r;

	asys_watchdog(20);
	ok = asys_present();
	REQUIRE(ok, "asys_submit exists");
	ok = prctl(PR_GET_IO_FLUSHER, 0, 0, 0, 0) == 0;
	REQUIRE(ok, "the task starts without PR_SET_IO_FLUSHER");

	r = asys_prctl(PR_SET_IO_FLUSHER, 1);
	CHECK(r == -EINVAL, "1: PR_SET_IO_FLUSHER on a call's fibril: %ld (want -EINVAL: it would vanish with the call)",
	      r);
	r = prctl(PR_GET_IO_FLUSHER, 0, 0, 0, 0);
	CHECK(r == 0, "1: afterwards the task has no half-set attribute: PR_GET_IO_FLUSHER %ld", r);

	ok = prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0) == 0;
	REQUIRE(ok, "2: PR_SET_IO_FLUSHER synchronously (needs CAP_SYS_RESOURCE: the test runs as root)");
	r = asys_prctl(PR_GET_IO_FLUSHER, 0);
	CHECK(r == 1, "2: a call started afterwards sees the task's attribute: PR_GET_IO_FLUSHER %ld (want 1)", r);
	r = prctl(PR_GET_IO_FLUSHER, 0, 0, 0, 0);
	CHECK(r == 1, "2: the main chain still has it after the call ended: %ld", r);

	ok = prctl(PR_SET_IO_FLUSHER, 0, 0, 0, 0) == 0;
	REQUIRE(ok, "3: PR_SET_IO_FLUSHER 0 synchronously");
	r = asys_prctl(PR_GET_IO_FLUSHER, 0);
	CHECK(r == 0, "3: cleared for the calls too: PR_GET_IO_FLUSHER %ld", r);
	return labtest_done();
}
