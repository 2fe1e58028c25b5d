/*
 * asys_restart_block (regression test): what the Lab 6 fuzzer found first (SEED=1 ITER=5000
 * SMP=2 on the solved Lab 4 kernel of 2026-12-03): one task's fibrils shared
 * current->restart_block. Patch 4 now keeps it in per_call_chain_storage, one per chain.
 *
 * An interrupted system call that can be restarted leaves its state in
 * current->restart_block: poll() its ufds/nfds/timeout (restart_block.poll), a futex wait
 * with a timeout its futex (restart_block.futex), nanosleep() its clock and where to copy
 * the remaining time (restart_block.nanosleep). The three are a union. In 2007
 * restart_block lived in thread_info, which the seed gave every fibril; 6.1 moved it into
 * task_struct (2015), so without patch 4's move every call chain of a task shared one.
 *
 * Here a pending poll() and a pending nanosleep(ts, NULL) are interrupted by one signal.
 * When the poll's fibril handles it first, it writes restart_block.poll {nfds, has_timeout};
 * the nanosleep's fibril then reads restart_block.nanosleep.type (the bytes of poll.nfds)
 * and copies the remaining time to .compat_rmtp (the bytes of poll.has_timeout):
 *   nfds = 1: type TT_NATIVE, rmtp = (void *)1: nanosleep completes with -EFAULT, not -EINTR
 *   nfds = 3 (argument "bug"): type 3: BUG() in nanosleep_copyout(), kernel/time/hrtimer.c
 *     -- from an unprivileged program, and the machine hangs after the oops.
 * The same sharing lets a fibril overwrite restart_block.fn under the main chain's own
 * interrupted call, which SA_RESTART then restarts as the fibril's call.
 *
 * Passes (exit 0) when every interrupted nanosleep completes with -EINTR (or 0).
 * Graded with exercise 6: on the start tree the signal never reaches the sleeping calls,
 * so the test's watchdog fails it there (exit 1, naming the step), as in asys_signals.
 * Build: gcc -m32 -static -O2 -Wall -I labs/include -o asys_restart_block asys_restart_block.c
 * Run:   make run-guest PROG=asys_restart_block LAB=4
 */
#include <poll.h>
#include "labtest.h"
#include "asys_test.h"

#define NR_poll 168

static void on_sig(int s) { (void)s; }

int main(int argc, char **argv)
{
	int nfds = argc > 1 && !strcmp(argv[1], "bug") ? 3 : 1;
	struct sigaction sa;
	struct asys_timespec32 ts = { 2, 0 };
	unsigned long sargs[2] = { (unsigned long)&ts, 0 }, pargs[3];
	struct pollfd pfd[3];
	struct asys_input r[2];
	struct asys_completion c;
	int p[2], round, i, bad = 0;

	if (!asys_present())
		return 1;
	REQUIRE(pipe(p) == 0, "a pipe nobody writes");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;		/* no SA_RESTART */
	sigaction(SIGUSR2, &sa, NULL);
	asys_watchdog(30);
	for (i = 0; i < 3; i++)
		pfd[i] = (struct pollfd){ p[0], POLLIN, 0 };
	pargs[0] = (unsigned long)pfd;
	pargs[1] = nfds;
	pargs[2] = 2000;			/* ms */
	for (round = 0; round < 20; round++) {
		/* both orders: which fibril handles the signal first decides */
		asys_req(&r[round & 1], NR_poll, 1, pargs, 3);
		asys_req(&r[!(round & 1)], ASYS_NR_nanosleep, 2, sargs, 2);
		REQUIRE(asys_submit(r, 2) == 2, "round %d: poll and nanosleep pending", round);
		usleep(20 * 1000);
		kill(getpid(), SIGUSR2);
		for (i = 0; i < 2; i++) {
			asys_watchdog_step = "collecting the interrupted calls";
			while (asys_await_completion(&c) != 1)
				;
			if (c.cookie == 2 && c.return_code != -EINTR && c.return_code != 0) {
				printf("round %d (%s first): nanosleep completed with %ld, want -EINTR\n",
				       round, round & 1 ? "nanosleep" : "poll", c.return_code);
				bad++;
			}
		}
	}
	CHECK(bad == 0, "%d of 20 interrupted nanosleeps completed with -EINTR", 20 - bad);
	return labtest_done();
}
