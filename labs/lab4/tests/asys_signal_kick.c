/*
 * asys_signal_kick: a signal sent from another CPU to a thread that runs in user space
 * interrupts it at once, with asys calls pending as without: the sending CPU kicks the
 * thread's CPU. Counted, never timed.
 *
 * signal_wake_up_state() sets TIF_SIGPENDING and wakes the thread; when the wake-up
 * woke nothing (the thread is running), kick_process() sends the thread's CPU a
 * rescheduling interrupt, so that it enters the kernel and takes the signal now rather
 * than at its next tick. For a thread with a call asleep on a fibril the wake-up wakes
 * that fibril and reports success although the thread itself is still running in user
 * space: the kick must not depend on what the wake-up reported.
 *
 * The oracle is the same thread with no call pending. A sender pinned to CPU 0 signals
 * a spinner pinned to CPU 1 while it spins in user space (until its SIGUSR1 handler
 * sets a flag), ROUNDS times without a call pending and ROUNDS times with a read pending
 * on an empty pipe. Each kick is one rescheduling interrupt on CPU 1 (RES in
 * /proc/interrupts). Both rounds must raise CPU 1's count by about ROUNDS; a missed kick
 * raises nothing (the signal is taken at the next tick instead), so a kernel that skips
 * it scores near 0. On one CPU there is nothing to kick: every signal must still arrive.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

#define ROUNDS 30

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */
static volatile sig_atomic_t got_signal;

static void on_usr1(int sig)
{
	(void)sig;
	got_signal = 1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* CPU 1's rescheduling interrupts so far (the RES line of /proc/interrupts), or -1 */
static long cpu1_resched_irqs(void)
{
	char line[512];
	long cpu0, cpu1 = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " RES: %ld %ld", &cpu0, &cpu1) == 2)
			break;
	if (f)
		fclose(f);
	return cpu1;
}

/* The sender, on CPU 0: for each byte on go, wait until the spinner spins, then signal it. */
static void sender(int go, pid_t spinner, int cpus)
{
	char b;

	if (cpus > 1 && pin(0))
		_exit(3);
	while (read(go, &b, 1) == 1) {
		usleep(50 * 1000);	/* the spinner is back in user space by now */
		kill(spinner, SIGUSR1);
	}
	_exit(0);
}

/* Spin in user space until the handler ran (or ~10 s of CPU went by). 1 when it did. */
static int spin_until_signal(void)
{
	double end = asys_now_ms() + 10000;
	unsigned long i;

	for (;;) {
		for (i = 0; i < 1000000; i++)
			if (got_signal)
				return 1;
		if (asys_now_ms() > end)
			return 0;
	}
}

/*
 * ROUNDS signals to this spinning process, with a read pending on a fresh empty pipe each
 * round when pending is set. Returns how many arrived; *kicks what CPU 1's count rose by.
 */
static int rounds(int go, int pending, long *kicks)
{
	long before = cpu1_resched_irqs();
	int arrived = 0, r, err;

	for (r = 0; r < ROUNDS; r++) {
		unsigned long args[ASYS_MAX_ARGS] = { 0 };
		int p[2];
		char b;

		if (pipe(p))
			break;
		if (pending) {
			args[0] = p[0], args[1] = (unsigned long)&b, args[2] = 1;
			if (asys_submit1(SYS_read, 1, args, 3, &err) != 1)
				break;
		}
		got_signal = 0;
		if (write(go, "g", 1) != 1)
			break;
		arrived += spin_until_signal();
		if (pending) {
			/* interrupted (-EINTR) or not: a byte completes it, and it is collected */
			if (write(p[1], "x", 1) != 1 || asys_collect(1) != 1)
				break;
		}
		close(p[0]), close(p[1]);
	}
	*kicks = cpu1_resched_irqs() - before;
	return arrived;
}

int main(void)
{
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), go[2], status = -1;
	struct sigaction sa;
	long plain_kicks, pending_kicks;
	int plain, with_call;
	pid_t child;

	ok = asys_present();
	REQUIRE(ok, "asys_submit is a system call of this kernel");
	asys_watchdog(60);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	REQUIRE(sigaction(SIGUSR1, &sa, NULL) == 0, "a SIGUSR1 handler");
	REQUIRE(cpus < 2 || pin(1) == 0, "the spinner on CPU 1 (%d CPUs)", cpus);
	REQUIRE(pipe(go) == 0, "a pipe to the sender");
	fflush(stdout);
	child = fork();
	if (child == 0) {
		close(go[1]);
		sender(go[0], getppid(), cpus);
	}
	REQUIRE(child > 0, "fork the sender");
	close(go[0]);

	asys_watchdog_step = "signals with no call pending";
	plain = rounds(go[1], 0, &plain_kicks);
	asys_watchdog_step = "signals with a read pending on asys";
	with_call = rounds(go[1], 1, &pending_kicks);
	close(go[1]);
	CHECK(asys_reap_within(child, &status, 5000) && status == 0, "the sender ends (status 0x%x)", status);

	CHECK(plain == ROUNDS, "the oracle: %d of %d signals reach the spinner with no call pending",
	      plain, ROUNDS);
	CHECK(with_call == ROUNDS, "%d of %d signals reach the spinner with a read pending on asys",
	      with_call, ROUNDS);
	if (cpus < 2) {
		CHECK(1, "one CPU: the sender runs only when the spinner does not, nothing to kick");
		return labtest_done();
	}
	CHECK(plain_kicks >= ROUNDS * 3 / 4,
	      "the oracle: %d signals from CPU 0 to CPU 1 with no call pending raise CPU 1's "
	      "rescheduling interrupts by %ld (kick_process(); %d wanted at least)",
	      ROUNDS, plain_kicks, ROUNDS * 3 / 4);
	CHECK(pending_kicks >= ROUNDS * 3 / 4,
	      "%d signals with a read pending on asys (its fibril woken by each) raise them by "
	      "%ld, as without a call (%d wanted at least): the running thread is kicked",
	      ROUNDS, pending_kicks, ROUNDS * 3 / 4);
	return labtest_done();
}
