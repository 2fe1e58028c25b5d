/*
 * asys_test.h: helpers for the tests of the asys ABI (asys.h): is asys here, errno
 * names, sleeping requests, KernelStack that settles, a watchdog that names the step
 * that hung, submit-one and collect-all, reaping a child within a bound, timed waits.
 * Tests include this; a program that only uses the ABI includes asys.h alone.
 */
#ifndef ASYS_TEST_H
#define ASYS_TEST_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>

#include "asys.h"
#include "kstack.h"	/* kernel_stack_kb() */

/*
 * asys_present(): 1 when this kernel has asys_submit, else 0 with a message on stdout.
 * It submits nothing (nr_requests 0 returns 0 on an asys kernel, ENOSYS elsewhere).
 */
static inline int asys_present(void)
{
	struct asys_input none;
	long r = asys_submit(&none, 0);

	if (r == 0)
		return 1;
	if (r == -1 && errno == ENOSYS)
		printf("this kernel has no asys_submit (system call %d gives ENOSYS): "
		       "it is not the solved Lab 4 kernel\n", __NR_asys_submit);
	else
		printf("asys_submit(NULL, 0) returned %ld (errno %d, %s), expected 0\n",
		       r, errno, strerror(errno));
	fflush(stdout);
	return 0;
}

/* asys_errname(): the name of the errnos the ABI uses, for messages ("EFAULT"). */
static inline const char *asys_errname(int e)
{
	switch (e) {
	case 0:		return "no error";
	case EFAULT:	return "EFAULT";
	case ENOSYS:	return "ENOSYS";
	case EINVAL:	return "EINVAL";
	case EAGAIN:	return "EAGAIN";
	case ENOMEM:	return "ENOMEM";
	case EINTR:	return "EINTR";
	case EBADF:	return "EBADF";
	case ENOENT:	return "ENOENT";
	default:	return "another errno";
	}
}

/*
 * Sleeping through asys: nanosleep is i386 system call 162 (sys_nanosleep_time32), which
 * takes the old 32-bit struct timespec. We spell that layout out instead of using
 * glibc's struct timespec, which becomes 64-bit in a program built with
 * -D_TIME_BITS=64. (The 64-bit alternative is clock_nanosleep_time64, 407, with a
 * {long long tv_sec; long long tv_nsec;} timespec and four arguments.)
 */
#define ASYS_NR_nanosleep 162
struct asys_timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

/* asys_sleep_req(): request "nanosleep(ts, NULL)" for ms milliseconds; args needs room for 2. */
static inline void asys_sleep_req(struct asys_input *r, unsigned long cookie, unsigned int ms,
				  struct asys_timespec32 *ts, unsigned long *args)
{
	ts->tv_sec = ms / 1000;
	ts->tv_nsec = (ms % 1000) * 1000000;
	args[0] = (unsigned long)ts;
	args[1] = 0;
	asys_req(r, ASYS_NR_nanosleep, cookie, args, 2);
}

/* asys_now_ms(): CLOCK_MONOTONIC in milliseconds (with a fraction). */
static inline double asys_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

/*
 * asys_watchdog(seconds): a test must never hang, even when the kernel loses a
 * completion. alarm(seconds) with a SIGALRM handler that says which step hung (set
 * asys_watchdog_step as the test goes), runs asys_watchdog_hook (e.g. to restore a
 * sysctl) and fails the test (exit 1: the test's own verdict, as on a start tree where
 * the call never completes). alarm(0) disarms it; calling it again re-arms it.
 */
static const char *volatile asys_watchdog_step = "start";
static void (*volatile asys_watchdog_hook)(void);

/* asys_say_signal_safe(): write a string to stdout from a signal handler. */
static inline void asys_say_signal_safe(const char *s)
{
	ssize_t n = write(1, s, strlen(s));

	(void)n;
}

static inline void asys_watchdog_fired(int sig)
{
	(void)sig;
	asys_say_signal_safe("FAIL: watchdog: no progress, expected the step to finish; stuck at step: ");
	asys_say_signal_safe(asys_watchdog_step);
	asys_say_signal_safe("\n");
	if (asys_watchdog_hook)
		asys_watchdog_hook();
	_exit(1);
}

static inline void asys_watchdog(unsigned int seconds)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = asys_watchdog_fired;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}


/*
 * Helpers shared by the Lab 4 tests.
 */
#include <sys/wait.h>

static unsigned long asys_noargs[ASYS_MAX_ARGS] __attribute__((unused));

/* asys_submit1(): submit one request; asys_submit's value, errno left in *err. */
static inline long asys_submit1(int nr, unsigned long cookie, unsigned long *args,
				unsigned long nr_args, int *err)
{
	struct asys_input r;
	long ret;

	asys_req(&r, nr, cookie, args, nr_args);
	errno = 0;
	ret = asys_submit(&r, 1);
	*err = errno;
	return ret;
}

/*
 * asys_collect(n): await exactly n completions that are known to be there or to be
 * coming (never relies on await returning 0 with nothing pending). Returns how many.
 */
static inline int asys_collect(int n)
{
	struct asys_completion c;
	int got = 0;

	while (got < n && asys_await_completion(&c) == 1)
		got++;
	return got;
}

/* asys_drain(): collect until await says nothing is left (needs await's 0). */
static inline int asys_drain(void)
{
	struct asys_completion c;
	int n = 0;

	while (asys_await_completion(&c) == 1)
		n++;
	return n;
}

/* asys_reap_within(pid, status, ms): waitpid for up to ms; 1 when reaped. */
static inline int asys_reap_within(pid_t pid, int *status, int ms)
{
	double end = asys_now_ms() + ms;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 || asys_now_ms() > end)
			return 0;
		usleep(5 * 1000);
	}
}

/*
 * asys_child_exit(pid, ms): a forked child's exit status once it has ended (waiting ms
 * at most); -1 if it was not forked (pid <= 0), did not end in time, or was killed.
 */
static inline int asys_child_exit(pid_t pid, int ms)
{
	int status;

	if (pid <= 0 || asys_reap_within(pid, &status, ms) != 1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * asys_fork_ready(child_main, mode, &pid): fork a child that runs child_main(mode, fd)
 * and writes one byte on fd once it has set up what the test needs ('y': ready, anything
 * else: it could not). Returns 1 when the child said 'y'; *pid is the child, or -1.
 */
static inline int asys_fork_ready(void (*child_main)(int mode, int ready_fd), int mode, pid_t *pid)
{
	int ready[2];
	char c = 0;

	*pid = -1;
	if (pipe(ready) != 0)
		return 0;
	fflush(stdout);
	*pid = fork();
	if (*pid == 0) {
		close(ready[0]);
		child_main(mode, ready[1]);
		_exit(99);	/* child_main ends the child itself */
	}
	close(ready[1]);
	if (*pid < 0 || read(ready[0], &c, 1) != 1)
		c = 0;
	close(ready[0]);
	return c == 'y';
}

/*
 * asys_timed_await(comp, ms): asys_await_completion() that a kernel which hangs cannot
 * hang: a SIGALRM (setitimer, handler without SA_RESTART) interrupts it after ms. Returns
 * await's value; *timed_out says whether our timer fired. The watchdog's SIGALRM
 * handler is put back afterwards (re-armed with watchdog_s seconds, 0 for none).
 */
static volatile sig_atomic_t asys_timer_fired;

static inline void asys_timer_handler(int sig)
{
	(void)sig;
	asys_timer_fired = 1;
}

static inline long asys_timed_await(struct asys_completion *comp, int ms, int *timed_out,
				    unsigned int watchdog_s)
{
	struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } }, none = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa, old;
	long r;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = asys_timer_handler;
	sigaction(SIGALRM, &sa, &old);
	asys_timer_fired = 0;
	alarm(0);
	setitimer(ITIMER_REAL, &it, NULL);
	r = asys_await_completion(comp);
	e = errno;
	setitimer(ITIMER_REAL, &none, NULL);
	*timed_out = asys_timer_fired;
	sigaction(SIGALRM, &old, NULL);
	if (watchdog_s)
		alarm(watchdog_s);
	errno = e;
	return r;
}

/*
 * asys_first_unused_nr(): the first i386 system call number after asys's two that this
 * kernel answers with ENOSYS synchronously: where the table ends. 453 on Labs 4 to 7; past
 * the ring's calls (453, 454) on Lab 8's kernel. Every argument is ~0, which each ring
 * call refuses with EINVAL without a side effect. (Not 451 and 452 themselves: on Lab 4's
 * start tree, the seed's asys_await_completion() would sleep for ever.)
 */
static inline int asys_first_unused_nr(void)
{
	int nr;

	for (nr = __NR_asys_await_completion + 1; nr < 1024; nr++) {
		errno = 0;
		if (syscall(nr, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL) == -1 && errno == ENOSYS)
			return nr;
	}
	return 1024;
}

/*
 * Lab 8's boots "N+ring" run the ABI's tests again with a completion ring registered:
 * lab.ring=ENTRIES on the kernel command line, which the guest's init hands on as
 * ASYS_TEST_RING. Before main(), the test's main thread registers a ring of that size;
 * the tests then run unchanged, their completions written into the ring and
 * asys_await_completion() reading it for them. A ring that cannot be registered fails the
 * test before it starts.
 */
static unsigned char asys_test_ring_mem[ASYS_RING_BYTES(ASYS_RING_MAX_ENTRIES)]
	__attribute__((aligned(4096), unused));

/*
 * asys_test_ring_thread(mem): register mem (ASYS_RING_BYTES(ASYS_RING_MAX_ENTRIES), 8-byte
 * aligned) as the calling thread's ring when ASYS_TEST_RING asks for one: 1 registered,
 * 0 not asked, -1 failed (errno set). A test that starts threads calls it in each.
 */
static inline int asys_test_ring_thread(void *mem)
{
	const char *want = getenv("ASYS_TEST_RING");
	unsigned long entries;

	if (!want || !*want)
		return 0;
	entries = strtoul(want, NULL, 0);
	if (entries > ASYS_RING_MAX_ENTRIES) {
		errno = EINVAL;
		return -1;
	}
	return asys_ring_setup((struct asys_ring *)mem, entries) == 0 ? 1 : -1;
}

__attribute__((constructor)) static void asys_test_ring_register(void)
{
	if (asys_test_ring_thread(asys_test_ring_mem) < 0) {
		printf("FAIL: ASYS_TEST_RING=%s: asys_ring_setup() of the main thread's ring "
		       "failed (errno %d, %s)\n", getenv("ASYS_TEST_RING"), errno, strerror(errno));
		exit(1);
	}
}

#endif
