/*
 * stack_kept: the stack a task's call ended on serves the task's next call unwiped, and
 * never another task's.
 *
 * Patch 8 keeps one stack per task (task->fibril_kept_stack) instead of sending it to the
 * per-CPU cache, where the next taker clears it. /sys/kernel/debug/fibrils/stacks counts
 * "kept" (stacks taken back unwiped) and "kept_foreign" (taken back by a task other than
 * the one that kept it: the kernel also WARNs, which fails the boot).
 *   1. 100 blocking round trips, one at a time, take back a kept stack nearly every time
 *      (at least 90): in fibril mode for the call's fibril, in cachemiss mode for the
 *      spare the user context moves to.
 *   2. 6 processes on both CPUs, forking, exec'ing themselves and exiting while their
 *      calls run and end: "kept" grows and "kept_foreign" stays 0.
 * Contract: /sys/kernel/debug/fibrils/stacks has "kept N" and "kept_foreign N" lines.
 */
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

#define STACKS "/sys/kernel/debug/fibrils/stacks"

static int ok;

static int read_kept(long *kept, long *foreign)
{
	static const char *const keys[] = { "kept", "kept_foreign" };
	long v[2];
	int ret = read_counters(STACKS, keys, v, 2);

	*kept = v[0], *foreign = v[1];
	return ret;
}

/* n blocking round trips: a read of an empty pipe, a write that ends it, its completion */
static long round_trips(int n, unsigned long cookie)
{
	static char byte;
	struct asys_completion c;
	unsigned long args[3];
	int fds[2], err;
	long i;

	if (pipe(fds))
		return -1;
	args[0] = fds[0], args[1] = (unsigned long)&byte, args[2] = 1;
	for (i = 0; i < n; i++)
		if (asys_submit1(SYS_read, cookie + i, args, 3, &err) != 1 ||
		    write(fds[1], "x", 1) != 1 || asys_await_completion(&c) != 1 ||
		    c.return_code != 1)
			break;
	close(fds[0]);
	close(fds[1]);
	return i;
}

static void churn_child(int idx, const char *self)
{
	long done = round_trips(40, 1000 * idx);

	if (done != 40)
		_exit(20);
	if (idx % 2) {
		static char byte;
		unsigned long args[3];
		int fds[2], err;

		/* exec with a call pending: asys_exec() drains it, and drops the kept stack */
		if (pipe(fds))
			_exit(21);
		args[0] = fds[0], args[1] = (unsigned long)&byte, args[2] = 1;
		if (asys_submit1(SYS_read, 1, args, 3, &err) != 1)
			_exit(21);
		execl(self, self, "--exec-child", (char *)NULL);
		_exit(21);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	long kept0, kept1, kept2, foreign, done;
	int i, status, bad = 0;
	pid_t pids[6];

	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return round_trips(20, 7000) == 20 ? 0 : 22;
	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = read_kept(&kept0, &foreign) == 0;
	REQUIRE(ok, "%s: want \"kept N\" and \"kept_foreign N\" lines (got none)", STACKS);

	asys_watchdog_step = "1: 100 round trips";
	done = round_trips(100, 1);
	CHECK(done == 100, "100 blocking round trips complete (%ld)", done);
	read_kept(&kept1, &foreign);
	CHECK(kept1 - kept0 >= 90, "at least 90 of them took back the stack the last one ended "
	      "on (kept grew by %ld)", kept1 - kept0);

	asys_watchdog_step = "2: 6 processes fork, exec and exit";
	fflush(stdout);
	for (i = 0; i < 6; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			churn_child(i, argv[0]);
	}
	for (i = 0; i < 6; i++) {
		status = -1;
		if (pids[i] < 0 || asys_reap_within(pids[i], &status, 30000) != 1 ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			printf("child %d: status %#x (20: round trips failed, 21: exec failed, "
			       "22: round trips after exec failed)\n", i, status);
			bad++;
		}
	}
	CHECK(bad == 0, "6 children made their round trips, 3 of them after an exec (%d failed)",
	      bad);
	read_kept(&kept2, &foreign);
	CHECK(kept2 - kept1 >= 6 * 30, "their calls took back their own stacks (kept grew by "
	      "%ld, want at least %d)", kept2 - kept1, 6 * 30);
	CHECK(foreign == 0, "no task ever took back a stack another task kept (kept_foreign %ld)",
	      foreign);
	return labtest_done();
}
