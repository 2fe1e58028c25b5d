/*
 * cachemiss_kstack: "a stack that changes owner is still counted once". KernelStack in
 * /proc/meminfo counts every kernel stack in use: each task's and each fibril's. In
 * cachemiss mode a call that blocks keeps the stack it started on, until then the
 * task's own, and the user context moves to a spare: the two stacks swap owners, and
 * each is freed the other kind's way. A child makes 32 such moves (a read of an empty
 * pipe, then the write that completes it) and exits; when it is gone, KernelStack must
 * be back where it was before, give or take one stack. A move that forgot one side of
 * the swap leaves it off by 8 kB per move, one way or the other.
 */
#include "labtest.h"
#include "asys_test.h"
#include "cachemiss.h"

#define MOVES 32

static int ok;

static void child(void)
{
	unsigned long args[3];
	struct asys_completion c;
	int p[2], i;
	char b;

	if (pipe(p))
		_exit(2);
	args[0] = p[0];
	args[1] = (unsigned long)&b;
	args[2] = 1;
	for (i = 0; i < MOVES; i++) {
		int err;

		if (asys_submit1(SYS_read, i, args, 3, &err) != 1 || write(p[1], "x", 1) != 1 ||
		    asys_await_completion(&c) != 1 || c.return_code != 1)
			_exit(3);
	}
	_exit(0);
}

/* |KernelStack - baseline| <= 8 kB, polled for up to 30 s (RCU frees stacks late) */
static long settle_near(long baseline)
{
	double end = asys_now_ms() + 30000;
	long kb;

	for (;;) {
		kb = kernel_stack_kb();
		if (kb >= baseline - KSTACK_ONE_STACK_KB && kb <= baseline + KSTACK_ONE_STACK_KB)
			return kb;
		if (asys_now_ms() > end)
			return kb;
		usleep(20 * 1000);
	}
}

int main(void)
{
	long baseline, m0, now;
	int status;
	pid_t pid;

	asys_watchdog(90);
	asys_watchdog_hook = cachemiss_restore;
	ok = asys_present() && cachemiss_on() == 0 && cachemiss_moves() >= 0;
	REQUIRE(ok, "a kernel with asys in cachemiss mode (kernel.asys_cachemiss=1)");

	baseline = kernel_stack_baseline();
	REQUIRE(baseline > 0, "KernelStack: %ld kB", baseline);
	m0 = cachemiss_moves();
	pid = fork();
	if (pid == 0)
		child();
	ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	REQUIRE(ok, "the child made its %d calls (status %#x)", MOVES, status);
	CHECK(cachemiss_moves() - m0 == MOVES, "each of its reads moved the user context once (%ld moves)",
	      cachemiss_moves() - m0);
	now = settle_near(baseline);
	CHECK(now >= baseline - KSTACK_ONE_STACK_KB && now <= baseline + KSTACK_ONE_STACK_KB,
	      "KernelStack back to %ld kB, give or take one stack, when the child is gone (%ld kB, %+ld kB: %+.1f stacks a move)",
	      baseline, now, now - baseline, (now - baseline) / 8.0 / MOVES);
	return labtest_done();
}
