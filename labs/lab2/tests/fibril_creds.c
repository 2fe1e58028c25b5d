/*
 * fibril_creds: a chain that overrode its credentials never lets another
 * chain of the task run under them.
 *
 * task->cred is one pointer for the whole task, not per call chain. A system
 * call such as faccessat() replaces it for the length of its path walk
 * (override_creds()), and the walk can sleep. If schedule() then switched to
 * another fibril, that fibril would run with credentials that are not its
 * own (and a commit_creds() on it would hit BUG_ON(task->cred != old)).
 *
 *   fibrils=3 switches=3000 cred=1    fibril 0 yields with overridden creds
 *   fibrils=8 switches=5000 cred=1    the same with more chains to switch to
 *
 * Every chain checks, each time it comes back from schedule(), that
 * current_cred() is its real credentials. A kernel that switches chains
 * while they are overridden fails the run (EIO, checks_failed > 0).
 */
#include "fibril_selftest.h"

static void run_ok(const char *line)
{
	struct report r;
	long ret = selftest_run(line, &r);

	CHECK(ret == (long)strlen(line), "write(\"%s\") returns its length (got %ld%s)", line, ret,
	      ret == -EIO ? ": EIO, a chain ran under another's credentials" : "");
	CHECK(!strcmp(r.result, "ok") && r.checks_failed == 0, "report: result %s, checks_failed %ld",
	      r.result, r.checks_failed);
}

int main(void)
{
	REQUIRE(access(SELFTEST, W_OK) == 0, "%s exists", SELFTEST);
	run_ok("fibrils=3 switches=3000 cred=1");
	run_ok("fibrils=8 switches=5000 cred=1");
	return labtest_done();
}
