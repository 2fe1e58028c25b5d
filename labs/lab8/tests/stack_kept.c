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
 *   3. exec is where one image's stacks stop serving the next: a process whose calls left
 *      a kept stack (and in cachemiss mode a spare made from it) execs itself, and the new
 *      image's first call takes a cleared stack, from the per-CPU cache or the allocator
 *      ("reused" or "allocated" grows).
 * Contract: /sys/kernel/debug/fibrils/stacks has "kept N" and "kept_foreign N" lines, and
 *   Lab 5's "allocated N" and "reused N".
 */
#include "fibril_stacks.h"	/* first: it defines _GNU_SOURCE */
#include <sys/wait.h>

static int ok;

static int read_kept(long *kept, long *foreign)
{
	static const char *const keys[] = { "kept", "kept_foreign" };
	long v[2];
	int ret = read_counters(STACKS, keys, v, 2);

	*kept = v[0], *foreign = v[1];
	return ret;
}

/* round_trips() of fibril_stacks.h on a pipe of its own */
static long pipe_round_trips(int n, unsigned long cookie)
{
	int fds[2];
	long done;

	if (pipe(fds))
		return -1;
	done = round_trips(fds[0], fds[1], n, cookie);
	close(fds[0]);
	close(fds[1]);
	return done;
}

/* a getpid() through asys, awaited: 1 when it came back right */
static int one_getpid(unsigned long cookie)
{
	struct asys_completion c;
	int err;

	return asys_submit1(SYS_getpid, cookie, NULL, 0, &err) == 1 &&
	       asys_await_completion(&c) == 1 && c.cookie == cookie && c.return_code == getpid();
}

/*
 * The new image of part 3: its first call must take a stack that was cleared. Exit 0;
 * 32, no stack was taken (the old image's spare served it); 33, the call failed.
 */
static int fresh_after_exec(void)
{
	struct stacks before, after;

	if (read_stacks(&before))
		return 33;
	if (!one_getpid(9000) || read_stacks(&after))
		return 33;
	return after.allocated + after.reused > before.allocated + before.reused ? 0 : 32;
}

static void churn_child(int idx, const char *self)
{
	long done = pipe_round_trips(40, 1000 * idx);

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
	pid_t pids[6], pid;

	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return pipe_round_trips(20, 7000) == 20 ? 0 : 22;
	if (argc > 1 && !strcmp(argv[1], "--fresh-after-exec"))
		return fresh_after_exec();
	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = read_kept(&kept0, &foreign) == 0;
	REQUIRE(ok, "%s: want \"kept N\" and \"kept_foreign N\" lines (got none)", STACKS);

	asys_watchdog_step = "1: 100 round trips";
	done = pipe_round_trips(100, 1);
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

	asys_watchdog_step = "3: exec";
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* a kept stack, and in cachemiss mode the spare the getpid() made from it */
		if (pipe_round_trips(2, 8000) != 2 || !one_getpid(8100))
			_exit(30);
		execl(argv[0], argv[0], "--fresh-after-exec", (char *)NULL);
		_exit(31);
	}
	status = asys_child_exit(pid, 30000);
	CHECK(status == 0,
	      "after exec, the new image's first call took a cleared stack, not one the old "
	      "image's calls used (exit %d; 32: no stack was taken, the old image's spare "
	      "served it; 30, 31, 33: the calls or the exec failed; -1: no exit)", status);
	return labtest_done();
}
