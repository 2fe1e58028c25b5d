/*
 * asys_sync_oracle (exercise 6, a differential test): the ABI says a signal affects a
 * pending call "as it would a synchronous call". Here the synchronous call is the
 * oracle: every scenario
 * is run twice in the same guest, once as a plain system call made by the main thread,
 * once submitted with asys_submit() while the main thread waits in
 * asys_await_completion(), and the two outcomes must be the same. Each scenario prints
 * "NAME: sync=X asys=Y" and checks X == Y.
 *
 * In both runs a helper child waits until the main thread sleeps (in the call, or in
 * await with the call pending), then sends the scenario's signal, and later makes the
 * call complete by itself (writes a byte, wakes the futex, exits): a call that the
 * signal interrupted ends early, one that the signal did not disturb (or that was
 * restarted) ends with the helper's data.
 *
 * The order of signal, handler and data is fixed by conditions, never by sleeps: the
 * guest may be slowed down by seconds at any point. A helper polls until the main
 * thread is asleep (/proc/PID/stat says 'S'), until it is stopped ('T'), or until the
 * scenario's handler has run (the handlers count in memory shared with the helpers),
 * and only then takes its next step. Every wait also ends once the call has returned,
 * so a kernel that completes a call too early gets a FAIL line, not a hang.
 *
 *   pipe_alrm_restart       read() on an empty pipe, SIGALRM caught with SA_RESTART:
 *                           the read is restarted and returns the byte.
 *   pipe_alrm_norestart     the same without SA_RESTART: EINTR.
 *   pipe_sigchld_restart    a child exits (SIGCHLD caught with SA_RESTART): the read
 *                           is restarted and returns the byte another child writes
 *                           once the handler has run.
 *   pipe_stop_cont          SIGSTOP, then SIGCONT, no handler: the read never notices
 *                           and returns the byte written after the SIGCONT.
 *   nanosleep_stop_cont     nanosleep(3 s) across SIGSTOP/SIGCONT: restarted through
 *                           restart_block, it returns 0 after the whole 3 s. (Long so
 *                           that the stop still finds it asleep on a slow host: no
 *                           condition can hold a sleep open.)
 *   clock_nanosleep_stop_cont      clock_nanosleep(CLOCK_MONOTONIC, 3 s), the same.
 *   clock_nanosleep_abs_stop_cont  the same with TIMER_ABSTIME (restarted as itself).
 *   poll_alrm_restart       poll() on an empty pipe, SIGALRM with SA_RESTART: poll is
 *                           never restarted after a handler: EINTR.
 *   futex_alrm_restart      FUTEX_WAIT (no timeout), SIGALRM with SA_RESTART: restarted,
 *                           it returns when the helper wakes it.
 *   wait4_sigchld_restart   wait4() for child B while child A exits (SIGCHLD with
 *                           SA_RESTART): restarted, it returns B's pid. (B exits once
 *                           the handler for A has run.)
 *   socket_alrm_restart     read() on an AF_UNIX socketpair, SIGALRM with SA_RESTART:
 *                           restarted, it returns the byte. (Skipped, with a line that
 *                           says so, on a kernel without AF_UNIX sockets.)
 *   eventfd_alrm_restart    read() on an eventfd, SIGALRM with SA_RESTART: restarted, it
 *                           returns the count the helper adds.
 *   pipe_other_thread       SIGUSR1 (no SA_RESTART) sent with tgkill() to ANOTHER thread
 *                           of the process: the main thread's read is not disturbed.
 *
 * What "the handler ran" means for a pending call: the thread that submitted it
 * handles the signal, and that decides the call's outcome as it would for the
 * thread's own call: a handler with SA_RESTART lets a restartable call go on and
 * return its data, any handler ends the calls that are never restarted after one
 * (poll, nanosleep) with EINTR, and a stop and continue or an ignored signal leaves
 * every call to finish undisturbed. A kernel that completes every interrupted call
 * with EINTR differs in 9 of the 12 scenarios below; on the start tree 2 differ (its
 * calls never see signals).
 *
 * Every run also checks that the signal was sent while the call was pending, and that
 * the synchronous oracle gave what the scenario documents (otherwise the comparison
 * would prove nothing). The test never hangs: a watchdog (re-armed for every run) names
 * the step, and every pending call is completed by its helper in the end.
 * Build: gcc -m32 -static -O2 -Wall -pthread -I labs/include -o asys_sync_oracle asys_sync_oracle.c
 * Run:   make run-guest PROG=asys_sync_oracle LAB=4
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"
#include "procwait.h"

#define WATCHDOG_S	30	/* per run: the waits below have no time bound of their own */
#define SLEEP_MS	3000	/* the stop must find the sleep still asleep, however late */
#define COOKIE		0x0a5e1eUL

/* i386 system call numbers, the same for the synchronous and the asys run */
#define NR_read			3
#define NR_wait4		114
#define NR_nanosleep		162	/* old 32-bit timespec */
#define NR_poll			168
#define NR_futex		240	/* old 32-bit timespec (none here) */
#define NR_clock_nanosleep	267	/* old 32-bit timespec */
#define NR_tgkill		270

/* ------------------------------------------------------------------ signals */

static volatile sig_atomic_t alrm_expected, alrm_caught, chld_caught, usr1_caught;
static volatile long usr1_tid;		/* the thread that ran the SIGUSR1 handler */
static void handled_one(void);		/* the helpers see it: D_WAIT_HANDLED */

static void on_alrm(int sig)
{
	if (!alrm_expected)
		asys_watchdog_fired(sig);	/* the watchdog: prints the step, exits 1 */
	alrm_expected = 0;
	alrm_caught++;
	handled_one();
}

static void on_chld(int sig)
{
	(void)sig;
	chld_caught++;
	handled_one();
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1_tid = syscall(SYS_gettid);
	usr1_caught++;
	handled_one();
}

static void catch(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static char stepbuf[160];

/* REQUIRE that prints only when it fails: setup steps that cannot go wrong in practice */
#define MUST(cond, ...)							\
	do {								\
		int must_ = !!(cond);					\
		if (!must_)						\
			REQUIRE(must_, __VA_ARGS__);			\
	} while (0)

#define STEP(...)							\
	do {								\
		snprintf(stepbuf, sizeof(stepbuf), __VA_ARGS__);	\
		asys_watchdog_step = stepbuf;				\
	} while (0)

/* -------------------------------------------------------- the helper children */

/*
 * What a helper child does once the main thread sleeps. It is a child process, so it
 * never receives the process's signals and never runs on the parent's fibrils.
 * D_WAIT_STATE waits until the main thread's state letter is arg ('S' asleep, 'T'
 * stopped), D_WAIT_HANDLED until the scenario's handler has run arg times.
 */
enum {
	D_END, D_WAIT_STATE, D_WAIT_HANDLED, D_KILL, D_TGKILL, D_WRITE, D_WRITE8,
	D_FUTEX_WAKE, D_EXIT
};

struct dstep {
	int op, arg;
};

#define MAX_STEPS	8

struct helper {
	struct dstep steps[MAX_STEPS];
	int go[2];		/* the parent writes one byte: "the call starts now" */
	int fd;			/* D_WRITE writes one 'd' here, D_WRITE8 an eventfd count of 1 */
	long tid;		/* D_TGKILL's thread */
	pid_t pid;
};

/* shared with the helpers (MAP_SHARED) */
struct shared {
	int futex_word;
	double sent_ms[2];	/* when helper i sent its first signal (or exited) */
	int handled;		/* the scenario's handler ran this often (any thread) */
	int call_done;		/* the call has returned: no wait makes sense any more */
};
static struct shared *shared;

static void handled_one(void)
{
	__atomic_add_fetch(&shared->handled, 1, __ATOMIC_SEQ_CST);
}

static void mark_sent(int idx)
{
	if (shared->sent_ms[idx] == 0)
		shared->sent_ms[idx] = asys_now_ms();
}

static int holds(int op, int arg, pid_t parent)
{
	if (op == D_WAIT_STATE)
		return proc_state(parent) == arg;
	return __atomic_load_n(&shared->handled, __ATOMIC_SEQ_CST) >= arg;
}

static int call_done(void)
{
	return __atomic_load_n(&shared->call_done, __ATOMIC_SEQ_CST);
}

/*
 * Poll until the condition holds, however long that takes (the main thread's watchdog
 * catches a hang), or until the call has returned (then the rest is only cleanup).
 */
static void wait_until(int op, int arg, pid_t parent)
{
	while (!holds(op, arg, parent) && !call_done()) {
		if (getppid() != parent)
			_exit(5);	/* the test is gone: nobody to signal or wake */
		usleep(1000);
	}
}

static void __attribute__((noreturn)) helper_main(struct helper *h, int idx, pid_t parent)
{
	int i, stopped = 0, rc = 0;
	char go;

	close(h->go[1]);
	if (read(h->go[0], &go, 1) != 1)
		_exit(2);
	/*
	 * The main thread is in the call (or in await with the call pending) once it sleeps:
	 * a call on a fibril runs until it blocks before asys_submit() returns.
	 */
	wait_until(D_WAIT_STATE, 'S', parent);
	for (i = 0; i < MAX_STEPS && h->steps[i].op != D_END; i++) {
		int arg = h->steps[i].arg;

		switch (h->steps[i].op) {
		case D_WAIT_STATE:
		case D_WAIT_HANDLED:
			wait_until(h->steps[i].op, arg, parent);
			break;
		case D_KILL:
			mark_sent(idx);
			if (kill(parent, arg) != 0)
				rc = 3;
			stopped = arg == SIGSTOP ? 1 : arg == SIGCONT ? 0 : stopped;
			break;
		case D_TGKILL:
			mark_sent(idx);
			if (syscall(NR_tgkill, parent, h->tid, arg) != 0)
				rc = 3;
			break;
		case D_WRITE:
			if (write(h->fd, "d", 1) != 1)
				rc = 4;
			break;
		case D_WRITE8: {
			uint64_t one = 1;

			if (write(h->fd, &one, sizeof(one)) != sizeof(one))
				rc = 4;
			break;
		}
		case D_FUTEX_WAKE:
			__atomic_store_n(&shared->futex_word, 1, __ATOMIC_SEQ_CST);
			syscall(NR_futex, &shared->futex_word, FUTEX_WAKE, 1, NULL, NULL, 0);
			break;
		case D_EXIT:
			mark_sent(idx);
			_exit(rc);
		}
	}
	if (stopped)
		kill(parent, SIGCONT);	/* never leave the test stopped */
	_exit(rc);
}

/* ----------------------------------------------------------------- scenarios */

/* Everything one run of a scenario uses: fresh for every run. */
struct ctx {
	int nr, nargs;
	unsigned long args[6];
	int fds[2];
	char buf[8];
	struct pollfd pfd;
	struct asys_timespec32 ts;
	int status;
	unsigned int sleep_ms;		/* a sleep scenario: its length */
	int sleep_abs;			/* TIMER_ABSTIME: ts is set just before the call */
	double deadline;		/* when the sleep is over, CLOCK_MONOTONIC ms */
	int wait_helper1;		/* wait4's pid is helper 1's */
	int eventfd;			/* the read is an eventfd's: 8 bytes, a counter */
	const char *skip;		/* this kernel cannot run the scenario: why */
	pthread_t thread;
	int have_thread;
	struct helper h[2];
	int nh;
	volatile sig_atomic_t *handled;	/* the scenario's handler counter, if any */
};

struct outcome {
	long rc;			/* the return value, or -errno */
	double t0, t1;			/* the call started, its result arrived */
	double sent;			/* the scenario's signal was sent */
	int await_eintr;		/* asys run: await returned -1/EINTR this often */
	int handled;			/* its handler ran this often; -1: no handler */
	char cls[96];			/* what is compared */
	char desc[160];			/* what is printed */
};

struct scenario {
	const char *name;
	void (*setup)(struct ctx *);
	void (*classify)(struct ctx *, struct outcome *);
	const char *expect;		/* the class the synchronous oracle must give */
};

static const char *errname(long e, char *buf, size_t len)
{
	const char *n = asys_errname((int)e);

	if (e == ETIMEDOUT)
		n = "ETIMEDOUT";
	else if (e == ECHILD)
		n = "ECHILD";
	if (strcmp(n, "another errno") == 0) {
		snprintf(buf, len, "errno %ld", e);
		return buf;
	}
	return n;
}

static void helper_steps(struct helper *h, const struct dstep *s)
{
	int i;

	for (i = 0; i < MAX_STEPS && s[i].op != D_END; i++)
		h->steps[i] = s[i];
}

/* read(fd, buf, 1) on an empty pipe or socketpair; helper 0 writes 'd' at the end */
static void setup_read(struct ctx *c, int sock)
{
	int ok = sock ? socketpair(AF_UNIX, SOCK_STREAM, 0, c->fds) == 0 : pipe(c->fds) == 0;

	if (!ok && sock && (errno == ENOSYS || errno == EAFNOSUPPORT)) {
		c->skip = errno == ENOSYS ? "no sockets in this kernel (socketpair: ENOSYS)"
					  : "no AF_UNIX in this kernel (socketpair: EAFNOSUPPORT)";
		return;
	}
	MUST(ok, "setup: %s(): expected 0, got -1 (%s)", sock ? "socketpair" : "pipe", strerror(errno));
	c->nr = NR_read;
	c->args[0] = c->fds[0];
	c->args[1] = (unsigned long)c->buf;
	c->args[2] = 1;
	c->nargs = 3;
	c->h[0].fd = c->fds[1];
	c->nh = 1;
}

/* every list starts once the main thread sleeps in the call (or in await) */
static const struct dstep alrm_then_write[] = {	/* the data only after the handler */
	{ D_KILL, SIGALRM }, { D_WAIT_HANDLED, 1 }, { D_WRITE, 0 }, { D_END, 0 }
};
static const struct dstep stop_cont_then_write[] = {	/* the data once asleep again */
	{ D_KILL, SIGSTOP }, { D_WAIT_STATE, 'T' }, { D_KILL, SIGCONT },
	{ D_WAIT_STATE, 'S' }, { D_WRITE, 0 }, { D_END, 0 }
};
static const struct dstep stop_cont[] = {
	{ D_KILL, SIGSTOP }, { D_WAIT_STATE, 'T' }, { D_KILL, SIGCONT }, { D_END, 0 }
};
static const struct dstep exit_soon[] = { { D_EXIT, 0 }, { D_END, 0 } };
static const struct dstep write_later[] = {	/* after the SIGCHLD handler for exit_soon */
	{ D_WAIT_HANDLED, 1 }, { D_WRITE, 0 }, { D_END, 0 }
};
static const struct dstep exit_later[] = { { D_WAIT_HANDLED, 1 }, { D_EXIT, 0 }, { D_END, 0 } };
static const struct dstep alrm_then_wake[] = {
	{ D_KILL, SIGALRM }, { D_WAIT_HANDLED, 1 }, { D_FUTEX_WAKE, 0 }, { D_END, 0 }
};
static const struct dstep usr1_thread_then_write[] = {
	{ D_TGKILL, SIGUSR1 }, { D_WAIT_HANDLED, 1 }, { D_WRITE, 0 }, { D_END, 0 }
};

static void alrm_handler(struct ctx *c, int flags)
{
	catch(SIGALRM, on_alrm, flags);
	alrm_expected = 1;
	c->handled = &alrm_caught;
}

static void setup_pipe_alrm_restart(struct ctx *c)
{
	setup_read(c, 0);
	alrm_handler(c, SA_RESTART);
	helper_steps(&c->h[0], alrm_then_write);
}

static void setup_pipe_alrm_norestart(struct ctx *c)
{
	setup_read(c, 0);
	alrm_handler(c, 0);
	helper_steps(&c->h[0], alrm_then_write);
}

static void setup_socket_alrm_restart(struct ctx *c)
{
	setup_read(c, 1);
	if (c->skip)
		return;
	alrm_handler(c, SA_RESTART);
	helper_steps(&c->h[0], alrm_then_write);
}

static const struct dstep alrm_then_write8[] = {
	{ D_KILL, SIGALRM }, { D_WAIT_HANDLED, 1 }, { D_WRITE8, 0 }, { D_END, 0 }
};

static void setup_eventfd_alrm_restart(struct ctx *c)
{
	c->fds[0] = eventfd(0, 0);
	MUST(c->fds[0] >= 0, "setup: eventfd(): expected an fd, got -1 (%s)", strerror(errno));
	c->eventfd = 1;
	c->nr = NR_read;
	c->args[0] = c->fds[0];
	c->args[1] = (unsigned long)c->buf;
	c->args[2] = 8;
	c->nargs = 3;
	c->h[0].fd = c->fds[0];
	c->nh = 1;
	alrm_handler(c, SA_RESTART);
	helper_steps(&c->h[0], alrm_then_write8);
}

static void setup_pipe_sigchld_restart(struct ctx *c)
{
	setup_read(c, 0);
	catch(SIGCHLD, on_chld, SA_RESTART);
	c->handled = &chld_caught;
	helper_steps(&c->h[0], exit_soon);	/* its exit is the signal */
	c->h[1].fd = c->fds[1];
	helper_steps(&c->h[1], write_later);
	c->nh = 2;
}

static void setup_pipe_stop_cont(struct ctx *c)
{
	setup_read(c, 0);
	helper_steps(&c->h[0], stop_cont_then_write);
}

static void setup_sleep(struct ctx *c, int nr, int abs)
{
	c->nr = nr;
	c->sleep_ms = SLEEP_MS;
	c->sleep_abs = abs;
	c->ts.tv_sec = SLEEP_MS / 1000;
	c->ts.tv_nsec = (SLEEP_MS % 1000) * 1000000;
	if (nr == NR_nanosleep) {
		c->args[0] = (unsigned long)&c->ts;
		c->args[1] = 0;
		c->nargs = 2;
	} else {
		c->args[0] = CLOCK_MONOTONIC;
		c->args[1] = abs ? TIMER_ABSTIME : 0;
		c->args[2] = (unsigned long)&c->ts;
		c->args[3] = 0;
		c->nargs = 4;
	}
	helper_steps(&c->h[0], stop_cont);
	c->nh = 1;
}

static void setup_nanosleep_stop_cont(struct ctx *c)
{
	setup_sleep(c, NR_nanosleep, 0);
}

static void setup_clock_nanosleep_stop_cont(struct ctx *c)
{
	setup_sleep(c, NR_clock_nanosleep, 0);
}

static void setup_clock_nanosleep_abs_stop_cont(struct ctx *c)
{
	setup_sleep(c, NR_clock_nanosleep, 1);
}

static void setup_poll_alrm_restart(struct ctx *c)
{
	setup_read(c, 0);
	c->pfd.fd = c->fds[0];
	c->pfd.events = POLLIN;
	c->nr = NR_poll;
	c->args[0] = (unsigned long)&c->pfd;
	c->args[1] = 1;
	c->args[2] = (unsigned long)-1;		/* no timeout */
	c->nargs = 3;
	alrm_handler(c, SA_RESTART);
	helper_steps(&c->h[0], alrm_then_write);
}

static void setup_futex_alrm_restart(struct ctx *c)
{
	shared->futex_word = 0;
	c->nr = NR_futex;
	c->args[0] = (unsigned long)&shared->futex_word;
	c->args[1] = FUTEX_WAIT;		/* shared: the helper is another process */
	c->args[2] = 0;
	c->args[3] = 0;				/* no timeout */
	c->nargs = 4;
	alrm_handler(c, SA_RESTART);
	helper_steps(&c->h[0], alrm_then_wake);
	c->nh = 1;
}

static void setup_wait4_sigchld_restart(struct ctx *c)
{
	c->nr = NR_wait4;
	c->args[0] = 0;				/* helper 1's pid, once it is forked */
	c->args[1] = (unsigned long)&c->status;
	c->args[2] = 0;
	c->args[3] = 0;
	c->nargs = 4;
	c->wait_helper1 = 1;
	catch(SIGCHLD, on_chld, SA_RESTART);
	c->handled = &chld_caught;
	helper_steps(&c->h[0], exit_soon);	/* child A: its exit is the signal */
	helper_steps(&c->h[1], exit_later);	/* child B: the one waited for */
	c->nh = 2;
}

/* pipe_other_thread: a thread that only ever takes SIGUSR1 */
static volatile long other_tid;
static volatile int other_quit;

static void *other_thread(void *arg)
{
	sigset_t s;

	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	other_tid = syscall(SYS_gettid);
	while (!other_quit)
		usleep(5 * 1000);
	return NULL;
}

static void setup_pipe_other_thread(struct ctx *c)
{
	sigset_t all, old;
	int ok;

	setup_read(c, 0);
	catch(SIGUSR1, on_usr1, 0);		/* no SA_RESTART: a disturbed read says EINTR */
	c->handled = &usr1_caught;
	other_tid = 0;
	other_quit = 0;
	usr1_tid = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);	/* the thread starts with all blocked */
	ok = pthread_create(&c->thread, NULL, other_thread, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	MUST(ok, "setup: pthread_create() the other thread: expected 0, it failed");
	c->have_thread = 1;
	while (!other_tid)
		usleep(1000);		/* however long: the watchdog names this step */
	c->h[0].tid = other_tid;
	helper_steps(&c->h[0], usr1_thread_then_write);
}

/* ------------------------------------------------------------ classifying */

/* the class of a failed call: its errno's name */
static void cls_errno(struct outcome *o)
{
	char eb[24];

	snprintf(o->cls, sizeof(o->cls), "%s", errname(-o->rc, eb, sizeof(eb)));
}

/* the description: the class, NOTE (may be ""), and when the call ended */
static void desc_after(struct outcome *o, const char *note)
{
	snprintf(o->desc, sizeof(o->desc), "%s%s after %.0f ms", o->cls, note, o->t1 - o->t0);
}

static void classify_read(struct ctx *c, struct outcome *o)
{
	if (o->rc == 8 && c->eventfd) {
		uint64_t v;

		memcpy(&v, c->buf, sizeof(v));
		snprintf(o->cls, sizeof(o->cls), "8 bytes, count %llu", (unsigned long long)v);
	} else if (o->rc > 0)
		snprintf(o->cls, sizeof(o->cls), "%ld byte '%c'", o->rc, c->buf[0]);
	else if (o->rc == 0)
		snprintf(o->cls, sizeof(o->cls), "0 (EOF)");
	else
		cls_errno(o);
	desc_after(o, "");
}

static void classify_sleep(struct ctx *c, struct outcome *o)
{
	char eb[24];
	int whole = o->t1 >= c->deadline - 1;	/* 1 ms: the clock may tick in whole ms */

	if (o->rc == 0)
		snprintf(o->cls, sizeof(o->cls), "0, %s", whole ? "slept the whole time" : "ended early");
	else
		snprintf(o->cls, sizeof(o->cls), "%s, %s", errname(-o->rc, eb, sizeof(eb)),
			 whole ? "after the whole time" : "ended early");
	snprintf(o->desc, sizeof(o->desc), "%s (%.0f ms of %u)", o->cls,
		 o->t1 - o->t0, c->sleep_ms);
}

static void classify_poll(struct ctx *c, struct outcome *o)
{
	(void)c;
	if (o->rc > 0)
		snprintf(o->cls, sizeof(o->cls), "%ld (ready)", o->rc);
	else if (o->rc == 0)
		snprintf(o->cls, sizeof(o->cls), "0 (timeout)");
	else
		cls_errno(o);
	desc_after(o, "");
}

static void classify_futex(struct ctx *c, struct outcome *o)
{
	(void)c;
	/* 0 (woken) and EAGAIN (the word had changed when the wait began again) alike */
	if (o->rc == 0 || o->rc == -EAGAIN)
		snprintf(o->cls, sizeof(o->cls), "woken");
	else
		cls_errno(o);
	desc_after(o, o->rc == 0 ? " (0)" : o->rc == -EAGAIN ? " (EAGAIN)" : "");
}

static void classify_wait4(struct ctx *c, struct outcome *o)
{
	if (o->rc > 0 && o->rc == c->h[1].pid)
		snprintf(o->cls, sizeof(o->cls), "child B's pid");
	else if (o->rc > 0)
		snprintf(o->cls, sizeof(o->cls), "another pid (%ld)", o->rc);
	else
		cls_errno(o);
	desc_after(o, "");
}

/* ------------------------------------------------------------------ one run */

/*
 * waitpid, blocking: once the call has returned, every helper's waits end and it exits.
 * ECHILD: already gone (wait4 may have reaped it).
 */
static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* TIMER_ABSTIME: the sleep ends sleep_ms after now (CLOCK_MONOTONIC ms) */
static void set_abs_deadline(struct ctx *c, double now)
{
	double at = now + c->sleep_ms;

	c->ts.tv_sec = (int32_t)(at / 1000);
	c->ts.tv_nsec = (int32_t)((at - c->ts.tv_sec * 1000.0) * 1e6);
	c->deadline = c->ts.tv_sec * 1000.0 + c->ts.tv_nsec / 1e6;
}

static void run(const struct scenario *s, int use_asys, struct outcome *o)
{
	const char *how = use_asys ? "asys" : "sync";
	struct ctx c;
	pid_t parent = getpid();
	int i, ok;
	long r;

	memset(&c, 0, sizeof(c));
	memset(o, 0, sizeof(*o));
	c.fds[0] = c.fds[1] = -1;
	asys_watchdog(WATCHDOG_S);		/* SIGALRM: the watchdog until setup says otherwise */
	STEP("%s: %s: setup", s->name, how);
	alrm_expected = alrm_caught = chld_caught = usr1_caught = 0;
	shared->sent_ms[0] = shared->sent_ms[1] = 0;
	shared->handled = shared->call_done = 0;
	s->setup(&c);
	if (c.skip) {
		snprintf(o->cls, sizeof(o->cls), "skipped: %s", c.skip);
		return;
	}

	STEP("%s: %s: starting the helpers", s->name, how);
	fflush(stdout);
	for (i = 0; i < c.nh; i++) {
		ok = pipe(c.h[i].go) == 0;
		MUST(ok, "%s: %s: pipe() for helper %d: expected 0, got -1 (%s)", s->name, how, i,
		     strerror(errno));
		c.h[i].pid = fork();
		if (c.h[i].pid == 0)
			helper_main(&c.h[i], i, parent);
		MUST(c.h[i].pid > 0, "%s: %s: fork() helper %d: expected a pid, got -1 (%s)", s->name,
		     how, i, strerror(errno));
		close(c.h[i].go[0]);
	}
	if (c.wait_helper1)
		c.args[0] = c.h[1].pid;

	if (use_asys) {
		struct asys_input req;
		struct asys_completion comp;

		if (c.sleep_abs)
			set_abs_deadline(&c, asys_now_ms());
		asys_req(&req, c.nr, COOKIE, c.args, c.nargs);
		STEP("%s: asys: asys_submit", s->name);
		o->t0 = asys_now_ms();
		r = asys_submit(&req, 1);
		MUST(r == 1, "%s: asys: asys_submit started the call: expected 1, got %ld (errno %s)",
		     s->name, r, r < 0 ? asys_errname(errno) : "-");
		if (c.sleep_ms && !c.sleep_abs)
			c.deadline = o->t0 + c.sleep_ms;
		for (i = 0; i < c.nh; i++)
			MUST(write(c.h[i].go[1], "g", 1) == 1,
			     "%s: asys: telling helper %d to go: expected 1 byte written, got less", s->name, i);
		STEP("%s: asys: main waits in asys_await_completion for the pending call", s->name);
		for (;;) {
			memset(&comp, 0, sizeof(comp));
			r = asys_await_completion(&comp);
			if (r == 1)
				break;
			MUST(r == -1 && errno == EINTR,
			     "%s: asys: await: expected 1 (a completion) or -1/EINTR, got %ld (errno %s)",
			     s->name, r, r < 0 ? asys_errname(errno) : "-");
			o->await_eintr++;
		}
		o->t1 = asys_now_ms();
		__atomic_store_n(&shared->call_done, 1, __ATOMIC_SEQ_CST);
		o->rc = comp.return_code;
		MUST(comp.cookie == COOKIE, "%s: asys: the completion's cookie: expected 0x%lx, got 0x%lx",
		     s->name, COOKIE, comp.cookie);
	} else {
		for (i = 0; i < c.nh; i++)
			MUST(write(c.h[i].go[1], "g", 1) == 1,
			     "%s: sync: telling helper %d to go: expected 1 byte written, got less", s->name, i);
		STEP("%s: sync: main in the system call", s->name);
		o->t0 = asys_now_ms();
		if (c.sleep_abs)
			set_abs_deadline(&c, o->t0);
		else if (c.sleep_ms)
			c.deadline = o->t0 + c.sleep_ms;
		errno = 0;
		r = syscall(c.nr, c.args[0], c.args[1], c.args[2], c.args[3], c.args[4], c.args[5]);
		o->t1 = asys_now_ms();
		o->rc = r < 0 ? -errno : r;
		__atomic_store_n(&shared->call_done, 1, __ATOMIC_SEQ_CST);
	}
	o->handled = c.handled ? *c.handled : -1;

	STEP("%s: %s: reaping the helpers", s->name, how);
	for (i = 0; i < c.nh; i++) {
		close(c.h[i].go[1]);
		reap(c.h[i].pid);
	}
	o->sent = shared->sent_ms[0];
	s->classify(&c, o);

	STEP("%s: %s: cleanup", s->name, how);
	if (c.have_thread) {
		other_quit = 1;
		pthread_join(c.thread, NULL);
		if (usr1_tid != c.h[0].tid)
			o->handled = 0;		/* it must be that thread's handler */
	}
	for (i = 0; i < 2; i++)
		if (c.fds[i] >= 0)
			close(c.fds[i]);	/* the call has completed: nothing uses them */
	alrm_expected = 0;
	signal(SIGCHLD, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
}

static const struct scenario scenarios[] = {
	{ "pipe_alrm_restart", setup_pipe_alrm_restart, classify_read, "1 byte 'd'" },
	{ "pipe_alrm_norestart", setup_pipe_alrm_norestart, classify_read, "EINTR" },
	{ "pipe_sigchld_restart", setup_pipe_sigchld_restart, classify_read, "1 byte 'd'" },
	{ "pipe_stop_cont", setup_pipe_stop_cont, classify_read, "1 byte 'd'" },
	{ "nanosleep_stop_cont", setup_nanosleep_stop_cont, classify_sleep,
	  "0, slept the whole time" },
	{ "clock_nanosleep_stop_cont", setup_clock_nanosleep_stop_cont, classify_sleep,
	  "0, slept the whole time" },
	{ "clock_nanosleep_abs_stop_cont", setup_clock_nanosleep_abs_stop_cont, classify_sleep,
	  "0, slept the whole time" },
	{ "poll_alrm_restart", setup_poll_alrm_restart, classify_poll, "EINTR" },
	{ "futex_alrm_restart", setup_futex_alrm_restart, classify_futex, "woken" },
	{ "wait4_sigchld_restart", setup_wait4_sigchld_restart, classify_wait4, "child B's pid" },
	{ "socket_alrm_restart", setup_socket_alrm_restart, classify_read, "1 byte 'd'" },
	{ "eventfd_alrm_restart", setup_eventfd_alrm_restart, classify_read, "8 bytes, count 1" },
	{ "pipe_other_thread", setup_pipe_other_thread, classify_read, "1 byte 'd'" },
};

int main(void)
{
	struct outcome so, ao;
	unsigned int i, differ = 0, skipped = 0;
	double start = asys_now_ms();
	int ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	asys_watchdog(WATCHDOG_S);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	MUST(shared != MAP_FAILED, "mmap() a page shared with the helpers: expected a page, got MAP_FAILED");

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *s = &scenarios[i];
		int valid_s, valid_a;

		run(s, 0, &so);
		if (strncmp(so.cls, "skipped", 7) == 0) {
			printf("%s: %s\n", s->name, so.cls);
			skipped++;
			continue;
		}
		run(s, 1, &ao);
		/* <=: the guest's clock may tick in whole milliseconds */
		valid_s = so.sent >= so.t0 && so.sent <= so.t1;
		valid_a = ao.sent >= ao.t0 && ao.sent <= ao.t1;
		printf("%s: sync: %s; asys: %s (await -1/EINTR %d time(s))\n",
		       s->name, so.desc, ao.desc, ao.await_eintr);
		CHECK(valid_s && valid_a && so.handled != 0 && ao.handled != 0,
		      "%s: expected the signal sent while the call was pending, and its handler run "
		      "(-1: none): sync sent at +%.0f ms, ended +%.0f ms, handler %d; asys sent at +%.0f ms, "
		      "ended +%.0f ms, handler %d",
		      s->name, so.sent ? so.sent - so.t0 : -1.0, so.t1 - so.t0, so.handled,
		      ao.sent ? ao.sent - ao.t0 : -1.0, ao.t1 - ao.t0, ao.handled);
		CHECK(strcmp(so.cls, s->expect) == 0,
		      "%s: the synchronous oracle: expected %s, got %s", s->name, s->expect, so.cls);
		CHECK(strcmp(so.cls, ao.cls) == 0, "%s: sync=%s asys=%s%s", s->name, so.cls, ao.cls,
		      strcmp(so.cls, ao.cls) ? " (expected asys = sync)" : "");
		differ += strcmp(so.cls, ao.cls) != 0;
	}
	alarm(0);
	printf("%u of %u scenarios differ between the synchronous call and asys, %u skipped (%.1f s)\n",
	       differ, (unsigned int)(sizeof(scenarios) / sizeof(scenarios[0])) - skipped, skipped,
	       (asys_now_ms() - start) / 1000);
	return labtest_done();
}
