/*
 * asys_signals (exercise 6): "A signal delivered to a task interrupts its calls that sleep
 * interruptibly, as it would a synchronous call", and "a caught signal interrupts the
 * wait: -1 with errno EINTR".
 *
 * A SIGALRM handler is installed WITHOUT SA_RESTART.
 *   1. An asys read on an empty pipe is pending; main sleeps in user space's usleep()
 *      loop; alarm(1) fires and the handler runs. The read completes with return_code
 *      -EINTR, and await returns that completion (not the rescuer's byte).
 *   2. Another read is pending and main is blocked in asys_await_completion when
 *      alarm(1) fires: await returns -1 with errno EINTR, and the read, interrupted by
 *      the same signal, completes with -EINTR at the next await.
 *      (Both rules apply at once here; the test reads the ABI strictly: the wait that
 *      the signal interrupted returns EINTR, the call's completion comes afterwards.)
 *
 * No hang on a kernel that gets this wrong: a "rescuer" child writes to the pipe after
 * 6 s, so a read the signal failed to interrupt completes with 1 instead of -EINTR and
 * the test reports it. SIGALRM is the test's own signal here, so the watchdog is the
 * same handler: an alarm the test did not arm means the test is stuck.
 */
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define WATCHDOG_S 10
#define RESCUE_MS 6000	/* 5 s after the 1 s alarm: room for a loaded host */

static volatile sig_atomic_t test_alarm_armed, alarms;

static void on_alarm(int sig)
{
	if (!test_alarm_armed)
		asys_watchdog_fired(sig);	/* prints the step, exits 1 */
	test_alarm_armed = 0;
	alarms++;
	alarm(WATCHDOG_S);			/* back to being the watchdog */
}

static void arm_test_alarm(void)
{
	test_alarm_armed = 1;
	alarm(1);
}

/* a child that writes one byte into fd after ms: the way out if the signal is lost */
static pid_t rescuer(int fd, int ms)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		usleep(ms * 1000);
		_exit(write(fd, "r", 1) == 1 ? 0 : 1);
	}
	return pid;
}

static void stop_rescuer(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static long submit_read(int fd, char *buf, unsigned long cookie, unsigned long *args)
{
	struct asys_input req;

	args[0] = fd;
	args[1] = (unsigned long)buf;
	args[2] = 1;
	asys_req(&req, SYS_read, cookie, args, 3);
	return asys_submit(&req, 1);
}

/* 1. the signal arrives while main is in user space (or a plain usleep) */
static void signal_interrupts_pending_call(void)
{
	int fds[2];
	char buf[4];
	unsigned long args[3];
	struct asys_completion c;
	double t0;
	pid_t res;
	long r;

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	res = rescuer(fds[1], RESCUE_MS);
	REQUIRE(res > 0, "fork() a rescuer");
	r = submit_read(fds[0], buf, 0x51, args);
	REQUIRE(r == 1, "1: asys read on an empty pipe is pending (submit returned %ld)", r);

	asys_watchdog_step = "1: waiting for SIGALRM with a read pending";
	arm_test_alarm();
	t0 = asys_now_ms();
	while (alarms < 1)
		usleep(10 * 1000);
	printf("SIGALRM caught after %.0f ms\n", asys_now_ms() - t0);

	asys_watchdog_step = "1: await the interrupted read";
	r = asys_await_completion(&c);
	CHECK(r == 1, "1: await returned 1 (returned %ld, errno %s)", r, r < 0 ? asys_errname(errno) : "-");
	CHECK(r == 1 && c.cookie == 0x51, "1: the completion is the read's (cookie 0x%lx)", c.cookie);
	CHECK(r == 1 && c.return_code == -EINTR,
	      "1: the signal interrupted the pending read: return_code %ld = -EINTR (1 would mean the rescuer's byte)",
	      c.return_code);
	stop_rescuer(res);
	close(fds[1]);		/* EOF ends a read still pending */
	if (r != 1)
		asys_collect(1);
	close(fds[0]);		/* never close an fd a pending call may be using */
}

/* 2. the signal arrives while main is blocked in asys_await_completion */
static void signal_interrupts_await(void)
{
	int fds[2], e;
	char buf[4];
	unsigned long args[3];
	struct asys_completion c;
	double t0, dt;
	pid_t res;
	long r;

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	res = rescuer(fds[1], RESCUE_MS);
	REQUIRE(res > 0, "fork() a rescuer");
	r = submit_read(fds[0], buf, 0x52, args);
	REQUIRE(r == 1, "2: asys read on an empty pipe is pending (submit returned %ld)", r);

	asys_watchdog_step = "2: await interrupted by SIGALRM";
	arm_test_alarm();
	t0 = asys_now_ms();
	c.cookie = 0;
	r = asys_await_completion(&c);
	e = errno;
	dt = asys_now_ms() - t0;
	CHECK(alarms == 2, "2: the handler ran (%d alarms so far)", (int)alarms);
	CHECK(r == -1 && e == EINTR,
	      "2: the caught signal interrupted await: -1/EINTR after %.0f ms (returned %ld%s, cookie 0x%lx)",
	      dt, r, r < 0 ? asys_errname(e) : "", r == 1 ? c.cookie : 0UL);

	if (r == -1) {
		asys_watchdog_step = "2: await the interrupted read";
		r = asys_await_completion(&c);
	}
	CHECK(r == 1 && c.cookie == 0x52 && c.return_code == -EINTR,
	      "2: the pending read was interrupted too: cookie 0x%lx, return_code %ld (want 0x52, -EINTR)",
	      c.cookie, c.return_code);
	stop_rescuer(res);
	close(fds[1]);		/* EOF ends a read still pending */
	if (r != 1)
		asys_collect(1);
	close(fds[0]);		/* never close an fd a pending call may be using */
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = 0;		/* no SA_RESTART: interrupted calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(WATCHDOG_S);

	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	signal_interrupts_pending_call();
	signal_interrupts_await();
	alarm(0);
	return labtest_done();
}
