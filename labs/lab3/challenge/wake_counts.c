/*
 * wake_counts (the Lab 3 challenge's hidden test): who woke the fibrils?
 * /sys/kernel/debug/fibrils/wake_counts reads three machine-wide counts:
 *   targeted N     sleeping fibrils made runnable by a wake-up that named them
 *   net N          sleeping fibrils made runnable by a task-directed wake-up
 *                  (the safety net, which wakes every matching sleeper of the task)
 *   net_wakeups N  task-directed wake-ups that made at least one fibril runnable
 * and writing 0 starts them over.
 *
 *   1. after a write of 0: all three are 0;
 *   2. mode=waitqueue (wait_event sleepers, each woken by wake_up() on its own queue):
 *      every one of the run's wake-ups is targeted, and the net woke nothing;
 *   3. mode=taskwake (DECLARE_WAITQUEUE(current) sleepers, woken by wake_up() and
 *      wake_up_process()): the net made runnable the fibrils the run meant and the
 *      spurious ones it counted, over one task-directed wake-up per meant one (fewer
 *      than the fibrils: each woke several), and none of them counts as targeted;
 * each count within a few of what the self-test's own report implies (SLACK);
 *   4. a write of 0 starts over again; anything else is refused with EINVAL.
 * Nothing else in the guest uses fibrils while a test runs, so the counts are the run's.
 */
#include <fcntl.h>
#include "fibril_selftest.h"
#include "labtest.h"

#define WAKE_COUNTS "/sys/kernel/debug/fibrils/wake_counts"

/*
 * A fibril is made runnable once for each return from schedule() the self-test counts
 * (wakeups + spurious), and at most once more for each of the run's 4 fibrils, woken as
 * the run ends: a count above that counts what was not a fibril made runnable.
 */
#define SLACK 4

struct counts {
	long targeted, net, net_wakeups;
};

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static int read_counts(struct counts *c)
{
	static const char *const keys[] = { "targeted", "net", "net_wakeups" };
	long v[3] = { -1, -1, -1 };
	int ret = read_counters(WAKE_COUNTS, keys, v, 3);

	c->targeted = v[0], c->net = v[1], c->net_wakeups = v[2];
	return ret;
}

/* run(line, r, c): reset the counts, one self-test run that must pass, the counts after. */
static void run(const char *line, struct report *r, struct counts *c)
{
	int err = write_text(WAKE_COUNTS, "0");
	long ret;

	REQUIRE(err == 0, "writing 0 to %s before \"%s\" works (got errno %d)", WAKE_COUNTS,
		line, err);
	ret = selftest_run(line, r);
	REQUIRE(ret == (long)strlen(line) && !strcmp(r->result, "ok"),
		"self-test \"%s\" passed (write returned %ld, result \"%s\")", line, ret, r->result);
	ok = read_counts(c) == 0;
	REQUIRE(ok, "%s still has all three lines after \"%s\"", WAKE_COUNTS, line);
	printf("after \"%s\": wakeups %ld spurious %ld; targeted %ld, net %ld over %ld wake-ups\n",
	       line, r->wakeups, r->spurious, c->targeted, c->net, c->net_wakeups);
}

int main(void)
{
	struct counts c;
	struct report r;
	int err;

	ok = read_counts(&c) == 0;
	REQUIRE(ok, "%s reads \"targeted N\", \"net N\" and \"net_wakeups N\"%s", WAKE_COUNTS,
		ok ? "" : access(WAKE_COUNTS, F_OK) ? " (got no such file)" : " (got a file without all three)");

	err = write_text(WAKE_COUNTS, "0");
	ok = read_counts(&c) == 0;
	CHECK(err == 0 && ok && !c.targeted && !c.net && !c.net_wakeups,
	      "writing 0 starts over: 0, 0, 0 (write errno %d; got %ld, %ld, %ld)", err,
	      c.targeted, c.net, c.net_wakeups);

	run("mode=waitqueue fibrils=4 rounds=50", &r, &c);
	CHECK(c.targeted >= r.wakeups && c.targeted <= r.wakeups + SLACK && r.wakeups == 150,
	      "each of the 150 wake-ups named its fibril: targeted %ld to %ld (got %ld)",
	      r.wakeups, r.wakeups + SLACK, c.targeted);
	CHECK(c.net == 0 && c.net_wakeups == 0,
	      "the safety net woke no fibril when every sleeper is named (got net %ld over %ld)",
	      c.net, c.net_wakeups);

	run("mode=taskwake fibrils=4 rounds=50", &r, &c);
	CHECK(c.net >= r.wakeups + r.spurious && c.net <= r.wakeups + r.spurious + SLACK &&
	      r.wakeups == 150,
	      "the net made runnable the 150 meant fibrils and the %ld spurious ones: %ld to %ld (got %ld)",
	      r.spurious, r.wakeups + r.spurious, r.wakeups + r.spurious + SLACK, c.net);
	CHECK(c.net_wakeups >= r.wakeups - SLACK && c.net_wakeups <= r.wakeups + SLACK &&
	      c.net_wakeups < c.net,
	      "each of the %ld meant wake-ups was task-directed and woke its fibril, some others too: net_wakeups %ld to %ld, under net (got %ld)",
	      r.wakeups, r.wakeups - SLACK, r.wakeups + SLACK, c.net_wakeups);
	CHECK(c.targeted < r.wakeups,
	      "a task-directed sleeper is never counted as named: targeted under %ld (got %ld)",
	      r.wakeups, c.targeted);

	err = write_text(WAKE_COUNTS, "0");
	ok = read_counts(&c) == 0;
	CHECK(err == 0 && ok && !c.targeted && !c.net && !c.net_wakeups,
	      "writing 0 again starts over (write errno %d; got %ld, %ld, %ld)", err,
	      c.targeted, c.net, c.net_wakeups);
	err = write_text(WAKE_COUNTS, "5");
	CHECK(err == EINVAL, "writing anything but 0 is refused with EINVAL (errno %d)", err);
	return labtest_done();
}
