/*
 * asys_fuzz: a fuzzer for the asys ABI (design/asys-abi.md, labs/include/asys.h).
 *
 * Several worker threads each submit random batches of valid and invalid requests and
 * await their completions, while a signal thread shoots SIGUSR1 (handler with SA_RESTART)
 * and SIGUSR2 (handler without) at them, and workers now and then fork children that
 * exit, execve or are SIGKILLed with calls pending, or start threads that exit with
 * calls pending. Every answer of the kernel is checked against the ABI:
 *
 *   - asys_submit: the number started, or -1 with the documented errno of the first
 *     rejected request (EFAULT, ENOSYS, EINVAL, EAGAIN at kernel.asys_max_pending,
 *     ENOMEM); a request after a rejected one is never started (the rest of a short
 *     batch is submitted again, so every request's errno is checked).
 *   - every started call completes exactly once, to the thread that submitted it, with
 *     its cookie: a per-thread ledger of outstanding cookies; its return_code is what
 *     that system call returns (getpid is the pid, a read of a pipe is 1 or -EINTR ...),
 *     never a kernel-internal -ERESTART* code. The synchronous call is the oracle for
 *     signals too: a call that SA_RESTART restarts (a pipe read, a futex wait without a
 *     timeout) may only end with -EINTR if a SIGUSR2 handler (no SA_RESTART) ran in its
 *     thread while it was outstanding, and one that no handler restarts (nanosleep,
 *     poll, a timed futex wait) only if some handler ran.
 *   - asys_await_completion: 1 with a completion, 0 at once when nothing is outstanding
 *     (and never while something is), EINTR, EFAULT for a comp that cannot be written
 *     with the completion kept.
 *   - children and exiting threads: nothing inherited, prompt exit with calls pending.
 *   - nothing hangs: a watchdog thread ends the run with a report of every thread's
 *     outstanding calls when nothing progressed for fuzz.wd seconds.
 *   - at the end: KernelStack back to its baseline, slab (SUnreclaim) within a tolerance.
 *
 * Options, as KEY=VALUE arguments or fuzz.key=value on the kernel command line
 * (arguments win): ITER (requests to submit, in all; default 5000), SEED (default: from
 * the clock; always printed), THREADS (3), SIGNALS (1 = on), FORKS (1 = on), MAXPEND
 * (the kernel.asys_max_pending the run sets, restored at the end; 0 keeps the kernel's;
 * default 48), WD (watchdog seconds, 60), SLAB_KB (SUnreclaim growth allowed, 512),
 * TIME (stop submitting after this many seconds even before ITER; 0: no limit), LEAKCHECK
 * (0 skips the KernelStack and slab comparison, for runs beside other load: make stress).
 * Two switches to fuzz a kernel that is not finished yet (a Lab 4 start tree): INVALID=0
 * submits only requests the ABI must start (no refused or unknown numbers, nr_args <= 6,
 * readable arrays; bad buffers stay: they are the calls' business), EMPTY_AWAIT=0 never
 * awaits with nothing outstanding (the seed's await hangs there). SKIP=poll,fwait leaves
 * those request kinds out (short names: kind_short[] below), to get past a known defect.
 * The requests each thread builds depend on SEED alone; with THREADS=1 SIGNALS=0 a run
 * is the same sequence of system calls every time.
 *
 * Exit status: 0 when every check held, 1 on an ABI violation or a leak, 3 when the
 * watchdog fired.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include "labtest.h"
#include "asys_test.h"

/* ---------------------------------------------------------------- options */

static struct {
	unsigned long iter, threads, signals, forks, maxpend, wd, slab_kb, time, leakcheck;
	unsigned long invalid, empty_await;
	unsigned long long seed;
	int seed_given;
} opt = { 5000, 3, 1, 1, 48, 60, 512, 0, 1, 1, 1, 0, 0 };

static char opt_skip[256];	/* SKIP=a,b: request kinds never built (short names below) */

static int set_opt(const char *key, const char *val)
{
	static const struct { const char *k; unsigned long *v; } tab[] = {
		{ "iter", &opt.iter }, { "threads", &opt.threads }, { "signals", &opt.signals },
		{ "forks", &opt.forks }, { "maxpend", &opt.maxpend }, { "wd", &opt.wd },
		{ "slab_kb", &opt.slab_kb }, { "time", &opt.time }, { "leakcheck", &opt.leakcheck },
		{ "invalid", &opt.invalid }, { "empty_await", &opt.empty_await },
	};
	size_t i;

	if (!strcasecmp(key, "skip")) {
		snprintf(opt_skip, sizeof(opt_skip), ",%s,", val);
		return 1;
	}
	if (!strcasecmp(key, "seed")) {
		opt.seed = strtoull(val, NULL, 0);
		opt.seed_given = 1;
		return 1;
	}
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcasecmp(key, tab[i].k)) {
			*tab[i].v = strtoul(val, NULL, 0);
			return 1;
		}
	return 0;
}

static void parse_kv(const char *s, const char *prefix)
{
	char key[32];
	const char *eq;

	if (prefix) {
		if (strncmp(s, prefix, strlen(prefix)))
			return;
		s += strlen(prefix);
	}
	eq = strchr(s, '=');
	if (!eq || eq - s >= (long)sizeof(key))
		return;
	memcpy(key, s, eq - s);
	key[eq - s] = '\0';
	if (!set_opt(key, eq + 1) && !prefix)
		printf("asys_fuzz: unknown option %s (ITER SEED THREADS SIGNALS FORKS MAXPEND WD SLAB_KB TIME LEAKCHECK INVALID EMPTY_AWAIT SKIP)\n", s);
}

/* ---------------------------------------------------------------- the random stream */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ---------------------------------------------------------------- i386 system calls used in requests */

enum {
	NR_exit = 1, NR_fork = 2, NR_read = 3, NR_write = 4, NR_close = 6, NR_execve = 11,
	NR_getpid = 20, NR_kill = 37, NR_getppid = 64, NR_wait4 = 114, NR_sigreturn = 119,
	NR_clone = 120, NR_newuname = 122, NR_sched_yield = 158, NR_nanosleep = 162,
	NR_poll = 168, NR_rt_sigreturn = 173, NR_vfork = 190, NR_getuid32 = 199,
	NR_gettid = 224, NR_futex = 240, NR_exit_group = 252, NR_clock_gettime = 265,
	NR_tgkill = 270, NR_execveat = 358, NR_clone3 = 435,
};

static const int refused_nrs[] = {
	NR_fork, NR_vfork, NR_clone, NR_clone3, NR_execve, NR_execveat, NR_exit,
	NR_exit_group, NR_sigreturn, NR_rt_sigreturn, __NR_asys_submit, __NR_asys_await_completion,
};
/* entries of syscall_32.tbl without a handler, and numbers missing from it */
static const int ni_nrs[] = { 17, 31, 32, 35, 44, 53, 56, 58, 98, 112, 127, 130, 137, 167, 169,
			      188, 189, 222, 223, 251, 273, 285 };
/* [5] and [6]: where the table ends (asys_first_unused_nr(), set by main) and one past */
static long bad_nrs[] = { -1, -2, -452, INT_MIN, INT_MIN + 1, 453, 454, 500, 511,
				512, 1000, 4096, 100000, INT_MAX, 0x40000000 };
static const unsigned long bad_nargs[] = { 7, 8, 9, 16, 64, 255, 4096, 0x40000001UL, 0x40000002UL,
					   0x7fffffffUL, 0x80000000UL, 0x80000001UL, 0xfffffffeUL,
					   0xffffffffUL };

/* ---------------------------------------------------------------- what a request may give */

#define MAXERR 5
struct outcome {		/* return_code in [lo, hi], or -e for e in err[] */
	long lo, hi;
	short err[MAXERR];
};

enum kind {
	K_GETPID, K_GETTID, K_GETPPID, K_GETUID, K_YIELD, K_WRITE_NULL, K_READ_ZERO,
	K_READ_PIPE, K_WRITE_PIPE, K_NANOSLEEP, K_FUTEX_WAIT, K_FUTEX_WAKE, K_POLL,
	K_CLOSE_BAD, K_UNAME, K_CLOCK, K_KILL0, K_TGKILL, K_WAIT4, K_NI, K_REFUSED, K_BADNR,
	NKINDS
};
static const char *const kind_name[NKINDS] = {
	"getpid", "gettid", "getppid", "getuid32", "sched_yield", "write(/dev/null)",
	"read(/dev/zero)", "read(pipe)", "write(pipe)", "nanosleep", "futex_wait", "futex_wake",
	"poll(pipe)", "close(bad fd)", "newuname", "clock_gettime", "kill(self, 0)",
	"tgkill(self)", "wait4(no such child)", "unimplemented nr", "refused call", "bad nr",
};
static const char *const kind_short[NKINDS] = {
	"getpid", "gettid", "getppid", "getuid", "yield", "wnull", "rzero", "rpipe", "wpipe",
	"sleep", "fwait", "fwake", "poll", "close", "uname", "clock", "kill0", "tgkill", "wait4",
	"ni", "refused", "badnr",
};
static const unsigned char kind_weight[NKINDS] = {
	6, 4, 3, 2, 3, 5, 4, 12, 5, 10, 8, 3, 4, 2, 2, 3, 1, 1, 2, 3, 5, 5
};

/* ---------------------------------------------------------------- per-thread state */

#define LEDGER		1024	/* outstanding calls a thread can track */
#define DRAIN_AT	200	/* drain when this many are outstanding */
#define MAXBATCH	96
#define PAGE		4096

enum slot_state { FREE, RESERVED, LIVE };

struct slot {			/* one request from build to completion */
	uint32_t cookie;
	unsigned char state, kind, pipe_read, pipe_write;
	struct outcome out;
	unsigned long args[8];	/* what the request passes (and a spare for a guard) */
	char buf[16];		/* a read's buffer */
	struct asys_timespec32 ts;
	struct pollfd pfd;
	uint32_t started_op;	/* the worker's op number when it started */
	/*
	 * When EINTR is a right answer (the synchronous call is the oracle): a
	 * call that restarts under SA_RESTART (ERESTARTSYS: a pipe read, a
	 * futex wait without a timeout) only after a SIGUSR2 handler (no
	 * SA_RESTART) ran in its thread while it was outstanding; one that never
	 * restarts after a handler (nanosleep, poll, a timed futex wait) after
	 * any handler. The handler counts of the thread when it was built:
	 */
	unsigned char eintr_after;	/* 0, EINTR_ANY_HANDLER, EINTR_USR2_HANDLER */
	unsigned long handlers_at_build, usr2_at_build;
};
enum { EINTR_ANY_HANDLER = 1, EINTR_USR2_HANDLER };

struct model {			/* one entry of a batch, and what the kernel must do with it */
	int slot;		/* -1: an entry the kernel cannot read */
	int unreadable;
	short rej[MAXERR];	/* non-empty: must be rejected with one of these */
	int maybe_nosys;	/* unimplemented number: rejected ENOSYS or completes -ENOSYS */
};

struct stats {
	unsigned long requests, submits, started, rejected, rej_errno[135];
	unsigned long completions, comp_ok, comp_errno[135];
	unsigned long awaits, await0, await_eintr, await_efault;
	unsigned long forks_exit, forks_exec, forks_kill, thread_exits, violations;
};

struct worker {
	int idx;
	pthread_t th;
	volatile pid_t tid;
	uint64_t rng;
	struct slot slot[LEDGER];
	uint32_t seq;
	int outstanding, pipe_reads;	/* in the ledger: all calls, reads of the pipe */
	long pipe_known;		/* bytes surely in the pipe (see release()) */
	int pipe[2];
	int futex_word[4];
	char uname_buf[400];
	char unaligned_args[MAXBATCH + 4][32];	/* request i's args at +1..3 of row i */
	char *req_area, *req_guard;	/* two RW pages and a PROT_NONE page after them */
	char *arg_area, *arg_guard;
	struct asys_input batch[MAXBATCH + 4];
	struct model model[MAXBATCH + 4];
	volatile uint32_t op;		/* operations so far (the watchdog reads it) */
	volatile pid_t child;		/* a forked child still alive (the watchdog kills it) */
	const char *volatile doing;
	struct stats st;
	/* a thread that exits with calls pending */
	int exit_pipe[2], exit_futex;
	struct asys_timespec32 exit_ts;
	unsigned long exit_args[3][4];
	char exit_buf[4];
};

static struct worker *workers;
static pid_t tgid, ppid_at_start;
static int devnull, devzero;
static char *ro_page;		/* readable, not writable */
static volatile uint32_t progress;
static volatile int stop_signals;
static double deadline_ms;	/* TIME: 0 none */
static volatile sig_atomic_t caught_usr1, caught_usr2;
/* the handlers that ran in this thread (signals are sent to a thread: tgkill) */
static __thread volatile unsigned long handlers_here, usr2_here;
static unsigned long signals_sent;
static long max_pending = LONG_MAX;	/* LONG_MAX: no sysctl */
static char saved_max_pending[32];
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static char self_exe[256];

static uint32_t rnd(struct worker *w, uint32_t n)	/* 0..n-1 */
{
	return n ? (uint32_t)(splitmix(&w->rng) % n) : 0;
}

static int chance(struct worker *w, int percent)
{
	return (int)rnd(w, 100) < percent;
}

static void violation(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	w->st.violations++;
	if (w->st.violations > 40)
		return;
	pthread_mutex_lock(&out_lock);
	printf("VIOLATION [thread %d, op %u]: ", w->idx, w->op);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

static void note_progress(struct worker *w, const char *doing)
{
	w->op++;
	w->doing = doing;
	__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- pointers */

#define KADDR(x) ((unsigned long)(x))
#define USER_END 0xc0000000ULL	/* TASK_SIZE of the lab's i386 kernel (VMSPLIT_3G) */
static unsigned long unreadable(struct worker *w, char *guard)
{
	static const unsigned long kern[] = { 0, 1, 3, 0xc0000000UL, 0xc0100000UL, 0xc1000000UL,
					      0xfffff000UL, 0xfffffff0UL, 0xffffffffUL };

	if (chance(w, 50))
		return kern[rnd(w, sizeof(kern) / sizeof(kern[0]))];
	return KADDR(guard + rnd(w, PAGE));
}

static unsigned long unwritable(struct worker *w, char *guard)
{
	if (chance(w, 30))
		return KADDR(ro_page + 4 * rnd(w, 64));
	return unreadable(w, guard);
}

/* ---------------------------------------------------------------- outcomes */

static const char *errname(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "?";
}


static struct outcome exact(long v)
{
	struct outcome o = { v, v, { 0 } };

	return o;
}

static struct outcome failing(int e)	/* always -e */
{
	struct outcome o = { 1, 0, { (short)e } };

	return o;
}

static void also(struct outcome *o, int e)
{
	int i;

	for (i = 0; i < MAXERR; i++)
		if (!o->err[i] || o->err[i] == e) {
			o->err[i] = (short)e;
			return;
		}
}

static int outcome_ok(const struct outcome *o, long rc)
{
	int i;

	if (rc >= o->lo && rc <= o->hi)
		return 1;
	for (i = 0; i < MAXERR && o->err[i]; i++)
		if (rc == -o->err[i])
			return 1;
	return 0;
}

static void outcome_str(const struct outcome *o, char *s, size_t n)
{
	int i, k;

	k = o->lo <= o->hi ? (o->lo == o->hi ? snprintf(s, n, "%ld", o->lo)
					     : snprintf(s, n, "%ld..%ld", o->lo, o->hi))
			   : snprintf(s, n, "-");
	for (i = 0; i < MAXERR && o->err[i] && k < (int)n; i++)
		k += snprintf(s + k, n - k, " or -%s(%d)", errname(o->err[i]), o->err[i]);
}

static void rej_str(const short *rej, char *s, size_t n)
{
	int i, k = 0;

	s[0] = '\0';
	for (i = 0; i < MAXERR && rej[i] && k < (int)n; i++)
		k += snprintf(s + k, n - k, "%s%s", i ? " or " : "", errname(rej[i]));
}

static void add_rej(short *rej, int e)
{
	int i;

	for (i = 0; i < MAXERR; i++)
		if (!rej[i] || rej[i] == e) {
			rej[i] = (short)e;
			return;
		}
}

static int in_rej(const short *rej, int e)
{
	int i;

	for (i = 0; i < MAXERR && rej[i]; i++)
		if (rej[i] == e)
			return 1;
	return 0;
}

/* ---------------------------------------------------------------- the ledger */

static uint32_t make_cookie(int idx, uint32_t seq)
{
	return ((uint32_t)(idx + 1) << 27 | (seq & 0x07ffffff)) ^ 0xa5a5a5a5u;
}

static int cookie_thread(uint32_t c)
{
	return (int)((c ^ 0xa5a5a5a5u) >> 27) - 1;
}

static int cookie_slot(uint32_t c)
{
	return (int)((c ^ 0xa5a5a5a5u) & 0x07ffffff) % LEDGER;
}

static int slot_reserve(struct worker *w)
{
	int i, s;

	for (i = 0; i < LEDGER; i++) {
		s = (int)(w->seq % LEDGER);
		if (w->slot[s].state == FREE) {
			memset(&w->slot[s], 0, sizeof(w->slot[s]));
			w->slot[s].cookie = make_cookie(w->idx, w->seq);
			w->slot[s].state = RESERVED;
			w->seq = (w->seq + 1) & 0x07ffffff;
			return s;
		}
		w->seq = (w->seq + 1) & 0x07ffffff;
	}
	return -1;
}

/* ---------------------------------------------------------------- building a request */

/* fill args for the kind; returns how many the call needs */
static int build_call(struct worker *w, struct slot *s, int *nr, int *maybe_nosys, int *must_reject)
{
	unsigned long *a = s->args;
	int bad = chance(w, 12);	/* a bad pointer where the call takes one */
	int k = s->kind;

	*maybe_nosys = 0;
	*must_reject = 0;
	s->eintr_after = 0;
	s->handlers_at_build = handlers_here;
	s->usr2_at_build = usr2_here;
	switch (k) {
	case K_GETPID: *nr = NR_getpid; s->out = exact(tgid); return 0;
	case K_GETTID: *nr = NR_gettid; s->out = exact(w->tid); return 0;
	case K_GETPPID: *nr = NR_getppid; s->out = exact(ppid_at_start); return 0;
	case K_GETUID: *nr = NR_getuid32; s->out = exact(getuid()); return 0;
	case K_YIELD: *nr = NR_sched_yield; s->out = exact(0); return 0;
	case K_WRITE_NULL:	/* /dev/null never reads the buffer; vfs_write checks access_ok */
		*nr = NR_write;
		a[0] = devnull;
		a[1] = bad ? unreadable(w, w->arg_guard) : KADDR(s->buf);
		a[2] = rnd(w, 17);
		s->out = (unsigned long long)a[1] + a[2] > USER_END ? failing(EFAULT) : exact((long)a[2]);
		return 3;
	case K_READ_ZERO:
		*nr = NR_read;
		a[0] = devzero;
		a[2] = 1 + rnd(w, 16);
		a[1] = bad ? unwritable(w, w->arg_guard) : KADDR(s->buf);
		s->out = bad ? failing(EFAULT) : exact((long)a[2]);
		return 3;
	case K_READ_PIPE:	/* blocks until release() writes a byte, or a signal */
		*nr = NR_read;
		a[0] = w->pipe[0];
		a[1] = bad ? unwritable(w, w->arg_guard) : KADDR(s->buf);
		a[2] = 1;
		s->out = bad ? failing(EFAULT) : exact(1);
		also(&s->out, EINTR);
		s->eintr_after = EINTR_USR2_HANDLER;
		s->pipe_read = 1;
		return 3;
	case K_WRITE_PIPE:
		*nr = NR_write;
		a[0] = w->pipe[1];
		s->buf[0] = 'w';
		a[1] = bad ? unreadable(w, w->arg_guard) : KADDR(s->buf);
		a[2] = 1;
		s->out = bad ? failing(EFAULT) : exact(1);
		s->pipe_write = !bad;
		return 3;
	case K_NANOSLEEP:
		*nr = NR_nanosleep;
		s->ts.tv_sec = 0;
		s->ts.tv_nsec = chance(w, 5) ? 20000000 + rnd(w, 80000000) : (long)rnd(w, 3000000);
		a[0] = KADDR(&s->ts);
		a[1] = 0;
		s->out = exact(0);
		if (bad) {
			a[0] = unreadable(w, w->arg_guard);
			s->out = failing(EFAULT);
		} else if (chance(w, 5)) {
			s->ts.tv_nsec = chance(w, 50) ? 1000000000 : -1;
			s->out = failing(EINVAL);
		} else if (chance(w, 5)) {
			a[0] = KADDR(ro_page);	/* readable: holds { 0, 1 ms } */
		}
		also(&s->out, EINTR);
		s->eintr_after = EINTR_ANY_HANDLER;
		return 2;
	case K_FUTEX_WAIT: {
		int i = (int)rnd(w, 4);

		*nr = NR_futex;
		a[0] = KADDR(&w->futex_word[i]);
		a[1] = FUTEX_WAIT_PRIVATE;
		a[2] = chance(w, 70) ? 0 : 1;	/* the word is always 0: 1 is EAGAIN */
		s->ts.tv_sec = 0;
		s->ts.tv_nsec = 1000000 + rnd(w, 20000000);
		a[3] = chance(w, 85) ? KADDR(&s->ts) : 0;	/* 0: until release() wakes it */
		s->out = a[2] ? failing(EAGAIN) : exact(0);
		also(&s->out, ETIMEDOUT);
		also(&s->out, EINTR);
		also(&s->out, EAGAIN);
		s->eintr_after = a[3] ? EINTR_ANY_HANDLER : EINTR_USR2_HANDLER;
		if (bad) {
			a[0] = unreadable(w, w->arg_guard) & ~3UL;
			s->out = failing(EFAULT);
			if (a[0] == 0 || a[0] >= 0xc0000000UL)
				also(&s->out, EINVAL);	/* futex may check the range first */
		} else if (chance(w, 4)) {
			a[0] += 1 + rnd(w, 3);		/* unaligned */
			s->out = failing(EINVAL);
		}
		return 4;
	}
	case K_FUTEX_WAKE:
		*nr = NR_futex;
		a[0] = KADDR(&w->futex_word[rnd(w, 4)]);
		a[1] = FUTEX_WAKE_PRIVATE;
		a[2] = INT_MAX;
		s->out = (struct outcome){ 0, INT_MAX, { 0 } };
		return 3;
	case K_POLL:
		*nr = NR_poll;
		s->pfd.fd = w->pipe[0];
		s->pfd.events = POLLIN;
		a[0] = bad ? unwritable(w, w->arg_guard) : KADDR(&s->pfd);
		a[1] = 1;
		a[2] = rnd(w, 4);	/* ms */
		s->out = bad ? failing(EFAULT) : (struct outcome){ 0, 1, { 0 } };
		also(&s->out, EINTR);
		s->eintr_after = EINTR_ANY_HANDLER;
		return 3;
	case K_CLOSE_BAD:
		*nr = NR_close;
		a[0] = chance(w, 50) ? (unsigned long)-1 : 1000 + rnd(w, 100000);
		s->out = failing(EBADF);
		return 1;
	case K_UNAME:
		*nr = NR_newuname;
		a[0] = bad ? unwritable(w, w->arg_guard) : KADDR(w->uname_buf);
		s->out = bad ? failing(EFAULT) : exact(0);
		return 1;
	case K_CLOCK:
		*nr = NR_clock_gettime;
		a[0] = chance(w, 10) ? 1000 + rnd(w, 1000) : (unsigned long)CLOCK_MONOTONIC;
		a[1] = bad ? unwritable(w, w->arg_guard) : KADDR(&s->ts);
		s->out = a[0] >= 1000 ? failing(EINVAL) : bad ? failing(EFAULT) : exact(0);
		if (a[0] >= 1000 && bad)
			also(&s->out, EFAULT);
		return 2;
	case K_KILL0:
		*nr = NR_kill;
		a[0] = tgid;
		a[1] = 0;
		s->out = exact(0);
		return 2;
	case K_TGKILL:
		*nr = NR_tgkill;
		a[0] = tgid;
		a[1] = w->tid;
		a[2] = chance(w, 50) ? SIGUSR1 : SIGUSR2;
		s->out = exact(0);
		return 3;
	case K_WAIT4:
		*nr = NR_wait4;
		a[0] = 0x3ffffff0;
		a[1] = 0;
		a[2] = WNOHANG;
		a[3] = 0;
		s->out = failing(ECHILD);
		return 4;
	case K_NI:
		*nr = ni_nrs[rnd(w, sizeof(ni_nrs) / sizeof(ni_nrs[0]))];
		*maybe_nosys = 1;
		s->out = failing(ENOSYS);
		return (int)rnd(w, 7);
	case K_REFUSED:
		*nr = refused_nrs[rnd(w, sizeof(refused_nrs) / sizeof(refused_nrs[0]))];
		*must_reject = EINVAL;
		return (int)rnd(w, 7);
	default: /* K_BADNR */
		*nr = (int)bad_nrs[rnd(w, sizeof(bad_nrs) / sizeof(bad_nrs[0]))];
		*must_reject = ENOSYS;
		return (int)rnd(w, 7);
	}
}

static int pick_kind(struct worker *w)
{
	static int total;
	int i, r;

	if (!total)
		for (i = 0; i < NKINDS; i++)
			total += kind_weight[i];
	for (;;) {
		r = (int)rnd(w, total);
		for (i = 0; i < NKINDS; i++) {
			r -= kind_weight[i];
			if (r < 0)
				break;
		}
		if (i == K_TGKILL && !opt.signals)
			continue;
		if ((i == K_REFUSED || i == K_BADNR) && !opt.invalid)
			continue;
		if (opt_skip[0]) {
			char k[16];

			snprintf(k, sizeof(k), ",%s,", kind_short[i]);
			if (strstr(opt_skip, k))
				continue;
		}
		return i;
	}
}

/*
 * One request into batch[i] / model[i]. Where its args array lives: mostly in its slot,
 * sometimes unaligned, sometimes ending exactly at the guard page (valid), and in
 * *guard_used a note that the guard end is taken.
 */
static void build_request(struct worker *w, int i, int *guard_used)
{
	struct asys_input *r = &w->batch[i];
	struct model *m = &w->model[i];
	int sidx = slot_reserve(w), nr, maybe, must, need, j;
	struct slot *s = &w->slot[sidx];
	unsigned long nargs, *args;

	memset(m, 0, sizeof(*m));
	m->slot = sidx;
	s->kind = (unsigned char)pick_kind(w);
	need = build_call(w, s, &nr, &maybe, &must);
	m->maybe_nosys = maybe;
	if (must)
		add_rej(m->rej, must);
	for (j = need; j < 6; j++)	/* the unused registers: garbage */
		s->args[j] = (unsigned long)splitmix(&w->rng);
	nargs = need + rnd(w, 7 - need);
	args = s->args;

	j = (int)rnd(w, 40);
	if (!opt.invalid && (j < 4 || j == 7))
		j = 40;
	switch (j) {
	case 0: case 1:	/* nr_args > 6 */
		nargs = bad_nargs[rnd(w, sizeof(bad_nargs) / sizeof(bad_nargs[0]))];
		add_rej(m->rej, EINVAL);
		break;
	case 2: case 3:	/* args cannot be read */
		if (nargs == 0)
			nargs = 1 + rnd(w, 6);
		args = (unsigned long *)unreadable(w, w->arg_guard);
		add_rej(m->rej, EFAULT);
		break;
	case 4: case 5: case 6:	/* args at an unaligned address */
		args = (unsigned long *)(w->unaligned_args[i] + 1 + rnd(w, 3));
		memcpy(args, s->args, 6 * sizeof(long));
		break;
	case 7:	/* args ends exactly at the guard page: valid; one byte more is EFAULT */
		if (*guard_used || nargs == 0)
			break;
		*guard_used = 1;
		args = (unsigned long *)(w->arg_guard - nargs * sizeof(long));
		memcpy(args, s->args, nargs * sizeof(long));
		if (chance(w, 50)) {
			args = (unsigned long *)((char *)args + 1 + rnd(w, 4 * nargs));
			add_rej(m->rej, EFAULT);
		}
		break;
	case 8:	/* no args at all, NULL pointer: valid when the call needs none */
		if (need == 0) {
			nargs = 0;
			args = NULL;
		}
		break;
	}
	/* an unimplemented number whose rejection can only be ENOSYS stays maybe_nosys */
	asys_req(r, nr, s->cookie, args, nargs);
	w->st.requests++;
}

/* ---------------------------------------------------------------- completions */

static void complete(struct worker *w, const struct asys_completion *c)
{
	int t = cookie_thread(c->cookie), si = cookie_slot(c->cookie);
	struct slot *s;
	char want[160];

	w->st.completions++;
	if (c->return_code < 0 && c->return_code > -135)
		w->st.comp_errno[-c->return_code]++;
	else
		w->st.comp_ok++;
	if (t != w->idx) {
		violation(w, "completion with cookie %#lx: %s (thread %d's call, return_code %ld)",
			  c->cookie, t >= 0 && t < (int)opt.threads ? "another thread's call" :
			  "a cookie nobody submitted", t, c->return_code);
		return;
	}
	s = &w->slot[si];
	if (s->state != LIVE || s->cookie != c->cookie) {
		violation(w, "completion with cookie %#lx, return_code %ld: %s", c->cookie,
			  c->return_code, s->state == RESERVED && s->cookie == c->cookie ?
			  "a request that was NOT started (rejected)" :
			  "no such call outstanding (a duplicate completion, or never submitted)");
		return;
	}
	if (c->return_code <= -512 && c->return_code >= -516)
		violation(w, "%s (cookie %#lx) completed with %ld: a kernel-internal -ERESTART* code",
			  kind_name[s->kind], c->cookie, c->return_code);
	else if (!outcome_ok(&s->out, c->return_code)) {
		outcome_str(&s->out, want, sizeof(want));
		violation(w, "%s (cookie %#lx, args %#lx %#lx %#lx %#lx) returned %ld, want %s",
			  kind_name[s->kind], c->cookie, s->args[0], s->args[1], s->args[2],
			  s->args[3], c->return_code, want);
	} else if (c->return_code == -EINTR && s->eintr_after == EINTR_USR2_HANDLER &&
		   usr2_here == s->usr2_at_build) {
		violation(w, "%s (cookie %#lx) completed with -EINTR, but no handler without SA_RESTART ran in its thread: the synchronous call would have restarted",
			  kind_name[s->kind], c->cookie);
	} else if (c->return_code == -EINTR && s->eintr_after == EINTR_ANY_HANDLER &&
		   handlers_here == s->handlers_at_build) {
		violation(w, "%s (cookie %#lx) completed with -EINTR, but no handler ran in its thread: the synchronous call would have restarted",
			  kind_name[s->kind], c->cookie);
	}
	if (s->pipe_read) {
		w->pipe_reads--;
		if (c->return_code == 1)
			w->pipe_known--;
	}
	if (s->pipe_write && c->return_code == 1)
		w->pipe_known++;
	s->state = FREE;
	w->outstanding--;
}

/*
 * Make sure every outstanding call ends by itself before we wait: one byte in the pipe
 * for each read of it (pipe_known counts bytes written minus bytes read by collected
 * calls, so pipe_known >= pipe_reads is enough), and every futex word woken.
 * Sleeps, polls and timed futex waits end on their own.
 */
static void release(struct worker *w)
{
	char bytes[256];
	long need = w->pipe_reads - w->pipe_known;
	int i;

	memset(bytes, 'r', sizeof(bytes));
	while (need > 0) {
		ssize_t n = write(w->pipe[1], bytes, need > 256 ? 256 : need);

		if (n > 0) {
			need -= n;
			w->pipe_known += n;
		} else if (errno != EINTR) {
			violation(w, "write to our own pipe: %s", strerror(errno));
			break;
		}
	}
	for (i = 0; i < 4; i++)
		syscall(NR_futex, &w->futex_word[i], FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static void show_outstanding(struct worker *w, int max)
{
	int i, n = 0;

	for (i = 0; i < LEDGER && n < max; i++)
		if (w->slot[i].state == LIVE) {
			printf("    cookie %#x: %s (nr args %#lx %#lx %#lx %#lx), started at op %u\n",
			       w->slot[i].cookie, kind_name[w->slot[i].kind], w->slot[i].args[0],
			       w->slot[i].args[1], w->slot[i].args[2], w->slot[i].args[3],
			       w->slot[i].started_op);
			n++;
		}
}

/* await once; comp at a good, unaligned or bad address. Returns await's value. */
static long await_once(struct worker *w, int allow_bad)
{
	static __thread union { struct asys_completion c; char b[16]; } box;
	struct asys_completion c;
	unsigned long p = KADDR(&box.c);
	int bad = 0, before = w->outstanding;
	long r;
	int e;

	release(w);
	if (allow_bad && chance(w, 6)) {
		bad = 1;
		p = chance(w, 20) ? KADDR(w->req_guard - 4) : unwritable(w, w->req_guard);
	} else if (chance(w, 15)) {
		p += 1 + rnd(w, 7);
	}
	w->doing = "asys_await_completion";
	errno = 0;
	r = asys_await_completion((struct asys_completion *)p);
	e = errno;
	note_progress(w, "after await");
	w->st.awaits++;
	if (r == 1) {
		if (bad) {
			violation(w, "await returned 1 with comp %#lx, which cannot be written", p);
			return r;
		}
		if (before == 0)
			violation(w, "await returned 1 with nothing outstanding");
		memcpy(&c, (void *)p, sizeof(c));
		complete(w, &c);
	} else if (r == 0) {
		w->st.await0++;
		if (before > 0) {
			violation(w, "await returned 0 with %d call(s) outstanding: lost completions:",
				  before);
			pthread_mutex_lock(&out_lock);
			show_outstanding(w, 8);
			pthread_mutex_unlock(&out_lock);
			for (e = 0; e < LEDGER; e++)
				if (w->slot[e].state == LIVE)
					w->slot[e].state = FREE;
			w->outstanding = w->pipe_reads = 0;
		}
	} else if (r == -1 && e == EINTR) {
		w->st.await_eintr++;
	} else if (r == -1 && e == EFAULT && bad) {
		w->st.await_efault++;
		if (before == 0)
			violation(w, "await gave EFAULT with nothing outstanding (want 0 at once)");
	} else {
		violation(w, "await(comp %#lx) returned %ld, errno %d (%s), %d outstanding", p, r, e,
			  errname(e), before);
	}
	return r;
}

/* collect everything; then await must say 0 at once, whatever comp is */
static void drain(struct worker *w)
{
	char junk[512];
	int fl, spins = 0;

	while (w->outstanding > 0) {
		if (await_once(w, 0) == -1 && ++spins > 100000) {
			violation(w, "cannot drain: await keeps failing");
			return;
		}
	}
	if (opt.empty_await) {
		await_once(w, 0);
		await_once(w, 1);
	}
	/* nothing of ours runs now: empty the pipe */
	fl = fcntl(w->pipe[0], F_GETFL);
	fcntl(w->pipe[0], F_SETFL, fl | O_NONBLOCK);
	while (read(w->pipe[0], junk, sizeof(junk)) > 0 || errno == EINTR)
		;
	fcntl(w->pipe[0], F_SETFL, fl);
	w->pipe_known = 0;
}

/* ---------------------------------------------------------------- submitting */

static int must_be_rejected(const struct model *m)
{
	return m->unreadable || (m->rej[0] && !m->maybe_nosys) ||
	       (m->rej[0] && m->maybe_nosys && (m->rej[1] || m->rej[0] != ENOSYS));
}

static void started(struct worker *w, int i)
{
	struct model *m = &w->model[i];
	struct slot *s = &w->slot[m->slot];
	char want[64];

	if (m->unreadable) {
		violation(w, "batch entry %d was started though the kernel cannot read it", i);
		return;
	}
	if (must_be_rejected(m)) {
		rej_str(m->rej, want, sizeof(want));
		violation(w, "%s (nr %d, nr_args %#lx, args %p) was started; want rejected with %s",
			  kind_name[s->kind], w->batch[i].syscall_nr, w->batch[i].nr_args,
			  (void *)w->batch[i].args, want);
		s->out = (struct outcome){ LONG_MIN, LONG_MAX, { 0 } };	/* whatever */
	}
	if (w->outstanding >= max_pending)
		violation(w, "request started with %d calls outstanding (asys_max_pending %ld)",
			  w->outstanding, max_pending);
	s->state = LIVE;
	s->started_op = w->op;
	w->outstanding++;
	w->pipe_reads += s->pipe_read;
	w->st.started++;
}

static void rejected(struct worker *w, int i, int e)
{
	struct model *m = &w->model[i];
	int ok = in_rej(m->rej, e) || (e == EFAULT && m->unreadable) || e == ENOMEM ||
		 (e == EAGAIN && w->outstanding >= max_pending) ||
		 (e == ENOSYS && m->maybe_nosys);
	char want[80];

	w->st.rejected++;
	w->st.rej_errno[e < 135 ? e : 0]++;
	if (!ok) {
		if (m->unreadable)
			snprintf(want, sizeof(want), "EFAULT (unreadable entry)");
		else if (m->rej[0])
			rej_str(m->rej, want, sizeof(want));
		else
			snprintf(want, sizeof(want), "started (%d outstanding, max %ld)",
				 w->outstanding, max_pending);
		violation(w, "batch entry %d (%s, nr %d, nr_args %#lx) rejected with errno %d (%s); want %s",
			  i, m->unreadable ? "-" : kind_name[w->slot[m->slot].kind],
			  m->unreadable ? 0 : w->batch[i].syscall_nr,
			  m->unreadable ? 0 : w->batch[i].nr_args, e, errname(e), want);
	}
	if (!m->unreadable && m->slot >= 0)
		w->slot[m->slot].state = FREE;
}

/*
 * Submit one batch. n: entries built; where the array goes is chosen here: the heap,
 * an unaligned copy, ending at the guard page (valid), running into the guard (the
 * entries from the guard on cannot be read), or an unreadable pointer.
 */
static void submit_batch(struct worker *w, int n)
{
	size_t sz = sizeof(struct asys_input);
	char *base = (char *)w->batch;
	unsigned long nr_pass = (unsigned long)n;
	int nm = n, i, start = 0, guard = 0, place = (int)rnd(w, 20);

	if (!opt.invalid && place >= 3 && place <= 5)
		place = 6;
	int short_seen = 0;

	for (i = 0; i < n; i++)
		build_request(w, i, &guard);

	if (place == 0 || place == 1) {		/* unaligned */
		base = w->req_area + 1 + rnd(w, 15);
		memcpy(base, w->batch, n * sz);
	} else if (place == 2 || place == 3) {	/* ends at the guard, maybe with nr huge */
		base = w->req_guard - n * sz;
		memcpy(base, w->batch, n * sz);
		if (place == 3) {
			static const unsigned long huge[] = { 0xffffffffUL, 0x80000000UL,
							      0x10000000UL, 0x10000001UL, 1000 };

			nr_pass = huge[rnd(w, 5)];
			w->model[n] = (struct model){ .slot = -1, .unreadable = 1 };
			nm = n + 1;
		}
	} else if (place == 4) {		/* runs into the guard at entry k */
		int k = (int)rnd(w, n), cut = (int)rnd(w, sz);

		base = w->req_guard - k * sz - cut;
		memcpy(base, w->batch, k * sz + cut);
		for (i = k; i < n; i++) {
			if (w->model[i].slot >= 0)
				w->slot[w->model[i].slot].state = FREE;
			w->model[i] = (struct model){ .slot = -1, .unreadable = 1 };
		}
		nm = k + 1;
	} else if (place == 5 && chance(w, 50)) {	/* unreadable array */
		for (i = 0; i < n; i++)
			if (w->model[i].slot >= 0)
				w->slot[w->model[i].slot].state = FREE;
		base = (char *)unreadable(w, w->req_guard);
		w->model[0] = (struct model){ .slot = -1, .unreadable = 1 };
		nm = 1;
	}

	while (start < nm) {
		long r;
		int e;

		w->doing = "asys_submit";
		errno = 0;
		r = asys_submit((struct asys_input *)(base + start * sz), nr_pass - start);
		e = errno;
		note_progress(w, "after submit");
		w->st.submits++;
		if (r == -1) {
			short_seen = 0;
			rejected(w, start, e);
			if (w->model[start].unreadable)
				break;	/* nothing after it can be read either */
			start++;
			continue;
		}
		if (r <= 0 || (unsigned long)r > nr_pass - start) {
			violation(w, "asys_submit(%p, %lu) returned %ld (errno %d)", base + start * sz,
				  nr_pass - start, r, e);
			break;
		}
		if (short_seen && !w->model[start].unreadable && !must_be_rejected(&w->model[start]))
			violation(w, "batch entry %d: submit stopped before it, then started it", start);
		for (i = 0; i < r; i++) {
			if (start + i >= nm) {
				violation(w, "asys_submit started %ld requests; only %d were readable",
					  r, nm - start);
				break;
			}
			started(w, start + i);
		}
		start += (int)r;
		short_seen = start < nm;
	}
	/* entries never submitted (after an unreadable one): free their slots */
	for (i = start + 1; i < nm; i++)
		if (!w->model[i].unreadable && w->model[i].slot >= 0 &&
		    w->slot[w->model[i].slot].state == RESERVED)
			w->slot[w->model[i].slot].state = FREE;
}

/* ---------------------------------------------------------------- children, exiting threads */

/*
 * A forked child (multithreaded parent: raw system calls only). It must start with
 * nothing (await returns 0 at once), run its own call, then leave with two calls
 * pending: _exit, execve, or SIGKILL from the parent.
 */
static void child(struct worker *w, int mode, int ready_fd)
{
	struct asys_input r[3];
	struct asys_completion c;
	struct asys_timespec32 ts = { 30, 0 };	/* far past the parent's 20 s bound */
	unsigned long sargs[2] = { KADDR(&ts), 0 }, rargs[3];
	int hold[2];
	char buf[4];
	char *argv[] = { self_exe, (char *)"--exec-child", NULL };

	/* the parent's stdout is a pipe that must see EOF even if we never die */
	dup2(devnull, 1);
	dup2(devnull, 2);
	if (asys_await_completion(&c) != 0)
		_exit(10);
	if (pipe(hold))
		_exit(11);
	rargs[0] = hold[0];
	rargs[1] = KADDR(buf);
	rargs[2] = 1;
	asys_req(&r[0], NR_getpid, 1, NULL, 0);
	asys_req(&r[1], NR_read, 2, rargs, 3);
	asys_req(&r[2], NR_nanosleep, 3, sargs, 2);
	if (asys_submit(r, 3) != 3)
		_exit(12);
	if (asys_await_completion(&c) != 1 || c.cookie != 1 || c.return_code != syscall(NR_getpid))
		_exit(13);
	if (write(ready_fd, "k", 1) != 1)
		_exit(14);
	(void)w;
	if (mode == 0)
		_exit(0);
	if (mode == 1) {
		execve(self_exe, argv, environ);
		_exit(15);
	}
	for (;;)
		pause();
}

static int exec_child(void)
{
	struct asys_completion c;
	struct asys_input r;

	/* an inherited pending call would block here: the parent's bound catches it */
	if (asys_await_completion(&c) != 0)
		return 20;
	asys_req(&r, NR_getpid, 7, NULL, 0);
	if (asys_submit(&r, 1) != 1 || asys_await_completion(&c) != 1 || c.cookie != 7 ||
	    c.return_code != getpid())
		return 22;
	return asys_await_completion(&c) == 0 ? 0 : 23;
}

static void fork_test(struct worker *w)
{
	static const char *const what[] = { "_exit", "execve", "SIGKILL" };
	int mode = (int)rnd(w, 3), sync[2], status = 0;
	char k;
	pid_t pid;

	if (pipe(sync))
		return;
	w->doing = "fork";
	pid = fork();
	if (pid == 0) {
		close(sync[0]);
		child(w, mode, sync[1]);
	}
	close(sync[1]);
	if (pid < 0) {
		close(sync[0]);
		violation(w, "fork: %s", strerror(errno));
		return;
	}
	w->child = pid;
	{
		struct pollfd pf = { sync[0], POLLIN, 0 };
		double until = asys_now_ms() + 20000;
		int got = 0;

		while (!got && asys_now_ms() < until)
			if (poll(&pf, 1, 100) == 1)
				got = read(sync[0], &k, 1) >= 0 || errno != EINTR;
		if (!got)
			violation(w, "forked child (%s) not ready after 20 s: stuck in its first await (it must return 0 at once: nothing is inherited) or submit",
				  what[mode]);
	}
	close(sync[0]);
	if (mode == 2)
		kill(pid, SIGKILL);
	w->doing = "reaping a child that left with calls pending";
	/*
	 * "promptly": before the pending 30 s sleep would end. A prompt exit takes
	 * milliseconds; the 10 s between the bound and the sleep are room for a
	 * loaded host, not a speed target.
	 */
	if (!asys_reap_within(pid, &status, 20000)) {
		violation(w, "child (%s with 2 calls pending) not reaped after 20 s", what[mode]);
		kill(pid, SIGKILL);
		if (!asys_reap_within(pid, &status, 4000))
			violation(w, "child %d cannot even be killed", pid);
		else
			w->child = 0;
		return;
	}
	w->child = 0;
	if (mode == 2 ? !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		      : !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		violation(w, "child (%s with calls pending) ended with status %#x (10-15: in the child, 20-23: after execve; see child())",
			  what[mode], status);
	(*(mode == 0 ? &w->st.forks_exit : mode == 1 ? &w->st.forks_exec : &w->st.forks_kill))++;
	note_progress(w, "after a fork test");
}

static void *exiting_thread(void *arg)
{
	struct worker *w = arg;
	struct asys_input r[3];

	w->exit_ts = (struct asys_timespec32){ 10, 0 };
	w->exit_args[0][0] = w->exit_pipe[0];
	w->exit_args[0][1] = KADDR(w->exit_buf);
	w->exit_args[0][2] = 1;
	w->exit_args[1][0] = KADDR(&w->exit_ts);
	w->exit_args[1][1] = 0;
	w->exit_args[2][0] = KADDR(&w->exit_futex);
	w->exit_args[2][1] = FUTEX_WAIT_PRIVATE;
	w->exit_args[2][2] = 0;
	asys_req(&r[0], NR_read, 1, w->exit_args[0], 3);
	asys_req(&r[1], NR_nanosleep, 2, w->exit_args[1], 2);
	asys_req(&r[2], NR_futex, 3, w->exit_args[2], 4);
	w->exit_args[2][3] = 0;
	return (void *)(long)asys_submit(r, 3);	/* and leave with 3 calls pending */
}

static void thread_exit_test(struct worker *w)
{
	pthread_t t;
	struct timespec until;
	void *ret;
	int e;

	if (pipe(w->exit_pipe))
		return;
	w->exit_futex = 0;
	if (pthread_create(&t, NULL, exiting_thread, w)) {
		close(w->exit_pipe[0]);
		close(w->exit_pipe[1]);
		return;
	}
	w->doing = "joining a thread that exited with calls pending";
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 6;	/* the pending sleep is 10 s */
	e = pthread_timedjoin_np(t, &ret, &until);
	if (e) {
		violation(w, "a thread that exited with 3 calls pending is not gone after 6 s");
		(void)!write(w->exit_pipe[1], "x", 1);
		syscall(NR_futex, &w->exit_futex, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
		pthread_join(t, &ret);
	}
	if ((long)ret != 3)
		violation(w, "the exiting thread's asys_submit of 3 returned %ld", (long)ret);
	close(w->exit_pipe[0]);
	close(w->exit_pipe[1]);
	w->st.thread_exits++;
	note_progress(w, "after a thread exit test");
}

/* ---------------------------------------------------------------- threads */

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long quota = opt.iter / opt.threads + (w->idx < (int)(opt.iter % opt.threads));

	w->tid = (pid_t)syscall(NR_gettid);
	/* Lab 8's ring boots: each worker collects through a ring of its own */
	if (asys_test_ring_thread(aligned_alloc(4096, ASYS_RING_BYTES(ASYS_RING_MAX_ENTRIES))) < 0)
		violation(w, "asys_ring_setup() of the worker's ring failed (errno %d)", errno);
	while (w->st.requests < quota && !(deadline_ms && asys_now_ms() > deadline_ms)) {
		int a = (int)rnd(w, 100);

		if (a < 55) {
			int n = chance(w, 10) ? 1 + (int)rnd(w, MAXBATCH) : 1 + (int)rnd(w, 12);

			if ((unsigned long)n > quota - w->st.requests)
				n = (int)(quota - w->st.requests);
			/* mostly stay under the limit: EAGAIN is one errno, not the whole run */
			if (w->outstanding + n + 1 >= DRAIN_AT || w->pipe_reads + n > 150 ||
			    (w->outstanding + n > max_pending + 4 && chance(w, 85)))
				drain(w);
			submit_batch(w, n);
		} else if (a < 80) {
			int k = 1 + (int)rnd(w, 4);

			while (k-- > 0 && w->outstanding > 0)
				await_once(w, 1);
		} else if (a < 90) {
			drain(w);
		} else if (a < 93 && opt.forks) {
			fork_test(w);
		} else if (a < 95 && opt.forks) {
			thread_exit_test(w);
		} else if (w->outstanding == 0 && opt.empty_await) {
			await_once(w, 1);	/* must be 0 at once */
		} else {
			sched_yield();
		}
	}
	drain(w);
	w->doing = "done";
	return NULL;
}

static void on_usr1(int sig) { (void)sig; caught_usr1++; handlers_here++; }
static void on_usr2(int sig) { (void)sig; caught_usr2++; handlers_here++; usr2_here++; }

static void *signal_main(void *arg)
{
	uint64_t rng = opt.seed ^ 0x5157u;

	(void)arg;
	while (!stop_signals) {
		struct timespec d = { 0, (long)(200000 + splitmix(&rng) % 3000000) };
		struct worker *w = &workers[splitmix(&rng) % opt.threads];

		nanosleep(&d, NULL);
		if (w->tid && !stop_signals &&
		    syscall(NR_tgkill, tgid, w->tid, splitmix(&rng) % 2 ? SIGUSR1 : SIGUSR2) == 0)
			signals_sent++;
	}
	return NULL;
}

static void restore_max_pending(void)
{
	int fd;

	if (!saved_max_pending[0])
		return;
	fd = open("/proc/sys/kernel/asys_max_pending", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, saved_max_pending, strlen(saved_max_pending));
		close(fd);
	}
}

static void *watchdog_main(void *arg)
{
	uint32_t last = progress;
	unsigned long still = 0, i;

	(void)arg;
	for (;;) {
		sleep(1);
		if (progress != last) {
			last = progress;
			still = 0;
			continue;
		}
		if (++still < opt.wd)
			continue;
		printf("WATCHDOG: no progress for %lu s; seed %llu. Threads:\n", opt.wd, opt.seed);
		for (i = 0; i < opt.threads; i++) {
			struct worker *w = &workers[i];

			printf("  thread %lu (tid %d): op %u, %s, %d outstanding:\n", i, w->tid, w->op,
			       w->doing ? w->doing : "?", w->outstanding);
			show_outstanding(w, 12);
		}
		for (i = 0; i < opt.threads; i++)
			if (workers[i].child)
				kill(workers[i].child, SIGKILL);
		printf("FAIL: watchdog: no progress for %lu s (want some every %lu s); each thread's step is above\n",
		       opt.wd, opt.wd);
		printf("asys_fuzz: FAIL (hang)\n");
		fflush(stdout);
		restore_max_pending();
		_exit(3);
	}
	return NULL;
}

/* ---------------------------------------------------------------- the kernel's memory */

static long meminfo_kb(const char *key)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':') {
			kb = strtol(line + strlen(key) + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

#define MAXCACHES 256
struct slabs { int n; char name[MAXCACHES][32]; long objs[MAXCACHES], size[MAXCACHES]; };

static void read_slabinfo(struct slabs *s)
{
	char line[256];
	FILE *f = fopen("/proc/slabinfo", "r");

	s->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && s->n < MAXCACHES)
		if (line[0] != '#' && strncmp(line, "slabinfo", 8) &&
		    sscanf(line, "%31s %ld %*d %ld", s->name[s->n], &s->objs[s->n],
			   &s->size[s->n]) == 3)
			s->n++;
	fclose(f);
}

/* SUnreclaim once it stops falling (RCU-freed objects, exiting tasks) */
static long sunreclaim_settled(void)
{
	long prev = -1, now = meminfo_kb("SUnreclaim");
	int i, same = 0;

	for (i = 0; i < 100 && same < 20; i++) {	/* 2 s without a fall, 10 s at most */
		usleep(100 * 1000);
		prev = now;
		now = meminfo_kb("SUnreclaim");
		same = now >= prev ? same + 1 : 0;
	}
	return now;
}

/* ---------------------------------------------------------------- main */

static void set_max_pending(void)
{
	char buf[32];
	int fd = open("/proc/sys/kernel/asys_max_pending", O_RDWR);
	ssize_t n;

	if (fd < 0) {
		printf("%s: no /proc/sys/kernel/asys_max_pending (%s): EAGAIN cannot be checked\n",
		       opt.maxpend ? "VIOLATION" : "note", strerror(errno));
		if (opt.maxpend)
			workers[0].st.violations++;
		return;
	}
	n = read(fd, saved_max_pending, sizeof(saved_max_pending) - 1);
	saved_max_pending[n > 0 ? n : 0] = '\0';
	max_pending = strtol(saved_max_pending, NULL, 10);
	if (opt.maxpend) {
		snprintf(buf, sizeof(buf), "%lu\n", opt.maxpend);
		if (pwrite(fd, buf, strlen(buf), 0) == (ssize_t)strlen(buf))
			max_pending = (long)opt.maxpend;
		else
			printf("cannot set asys_max_pending to %lu: %s\n", opt.maxpend, strerror(errno));
	}
	close(fd);
	printf("kernel.asys_max_pending: %s (the kernel's) -> %ld for this run\n",
	       strtok(saved_max_pending, "\n") ? saved_max_pending : "?", max_pending);
}

static char *mkguarded(char **guard)
{
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + 2 * PAGE, PAGE, PROT_NONE)) {
		perror("mmap");
		exit(2);
	}
	*guard = p + 2 * PAGE;
	return p;
}

int main(int argc, char **argv)
{
	static struct slabs before, after;
	struct stats t = { 0 };
	struct sigaction sa;
	pthread_t sig_th, wd_th;
	sigset_t block;
	char cmdline[1024], *tok, *save;
	long ks0, ks1, su0, su1;
	double t0, secs;
	unsigned long i, e;
	int fd, n, failed;

	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return exec_child();
	setvbuf(stdout, NULL, _IOLBF, 0);
	bad_nrs[5] = asys_first_unused_nr();
	bad_nrs[6] = bad_nrs[5] + 1;
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		n = (int)read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = '\0';
		close(fd);
		for (tok = strtok_r(cmdline, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
			parse_kv(tok, "fuzz.");
	}
	for (i = 1; i < (unsigned long)argc; i++)
		parse_kv(argv[i], NULL);
	if (!opt.seed_given)
		opt.seed = (unsigned long long)time(NULL) * 1000003ULL ^ (unsigned long long)getpid();
	if (opt.threads < 1)
		opt.threads = 1;
	if (opt.threads > 15)
		opt.threads = 15;
	if (opt.wd < 5)
		opt.wd = 5;
	printf("asys_fuzz: SEED=%llu ITER=%lu THREADS=%lu SIGNALS=%lu FORKS=%lu MAXPEND=%lu%s%.*s (CPUs: %s)\n",
	       opt.seed, opt.iter, opt.threads, opt.signals, opt.forks, opt.maxpend,
	       opt_skip[0] ? " SKIP=" : "", opt_skip[0] ? (int)strlen(opt_skip) - 2 : 0,
	       opt_skip[0] ? opt_skip + 1 : "", getenv("LAB_SMP") ? getenv("LAB_SMP") : "?");
	printf("reproduce: make fuzz SEED=%llu ITER=%lu SMP=%s (or run it with SEED=%llu ITER=%lu)\n",
	       opt.seed, opt.iter, getenv("LAB_SMP") ? getenv("LAB_SMP") : "1", opt.seed, opt.iter);
	if (!asys_present())
		return 1;
	/*
	 * A BUG() or oops on a fibril leaves the guest stuck until the host's timeout;
	 * panic_on_oops turns it into a panic, which ends QEMU at once (the oops is in the log).
	 */
	fd = open("/proc/sys/kernel/panic_on_oops", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, "1", 1);
		close(fd);
	}

	n = (int)readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	self_exe[n > 0 ? n : 0] = '\0';
	tgid = getpid();
	ppid_at_start = getppid();
	devnull = open("/dev/null", O_WRONLY);
	devzero = open("/dev/zero", O_RDONLY);
	if (devnull < 0 || devzero < 0) {
		printf("cannot open /dev/null or /dev/zero: %s\n", strerror(errno));
		return 2;
	}
	ro_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	((struct asys_timespec32 *)ro_page)->tv_nsec = 1000000;
	mprotect(ro_page, PAGE, PROT_READ);

	workers = calloc(opt.threads, sizeof(*workers));
	for (i = 0; i < opt.threads; i++) {
		struct worker *w = &workers[i];
		uint64_t s = opt.seed + 0x1000 * (i + 1);

		w->idx = (int)i;
		w->rng = splitmix(&s);
		w->req_area = mkguarded(&w->req_guard);
		w->arg_area = mkguarded(&w->arg_guard);
		if (pipe(w->pipe)) {
			perror("pipe");
			return 2;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_usr2;
	sa.sa_flags = 0;
	sigaction(SIGUSR2, &sa, NULL);

	/* the baseline: after one warm-up fork and thread exit, so caches are populated */
	workers[0].tid = (pid_t)syscall(NR_gettid);
	if (opt.forks) {
		unsigned long v;

		fork_test(&workers[0]);
		thread_exit_test(&workers[0]);
		v = workers[0].st.violations;
		memset(&workers[0].st, 0, sizeof(workers[0].st));
		workers[0].st.violations = v;
	}
	/* the watchdog thread's kernel stack belongs in the baseline */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, NULL);	/* helper threads inherit the block */
	pthread_create(&wd_th, NULL, watchdog_main, NULL);
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	set_max_pending();
	ks0 = kernel_stack_baseline();
	su0 = sunreclaim_settled();
	read_slabinfo(&before);
	printf("baseline: KernelStack %ld kB, SUnreclaim %ld kB, Slab %ld kB\n", ks0, su0,
	       meminfo_kb("Slab"));

	pthread_sigmask(SIG_BLOCK, &block, NULL);
	if (opt.signals)
		pthread_create(&sig_th, NULL, signal_main, NULL);
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	t0 = asys_now_ms();
	deadline_ms = opt.time ? t0 + opt.time * 1000.0 : 0;
	for (i = 0; i < opt.threads; i++)
		pthread_create(&workers[i].th, NULL, worker_main, &workers[i]);
	for (i = 0; i < opt.threads; i++)
		pthread_join(workers[i].th, NULL);
	secs = (asys_now_ms() - t0) / 1000;
	stop_signals = 1;
	if (opt.signals)
		pthread_join(sig_th, NULL);
	restore_max_pending();

	for (i = 0; i < opt.threads; i++) {
		struct stats *s = &workers[i].st;

		t.requests += s->requests; t.submits += s->submits; t.started += s->started;
		t.rejected += s->rejected; t.completions += s->completions; t.comp_ok += s->comp_ok;
		t.awaits += s->awaits; t.await0 += s->await0; t.await_eintr += s->await_eintr;
		t.await_efault += s->await_efault; t.forks_exit += s->forks_exit;
		t.forks_exec += s->forks_exec; t.forks_kill += s->forks_kill;
		t.thread_exits += s->thread_exits; t.violations += s->violations;
		for (e = 0; e < 135; e++) {
			t.rej_errno[e] += s->rej_errno[e];
			t.comp_errno[e] += s->comp_errno[e];
		}
		close(workers[i].pipe[0]);
		close(workers[i].pipe[1]);
	}
	printf("requests: %lu in %lu asys_submit calls, %.1f s (%.0f requests/s)\n", t.requests,
	       t.submits, secs, t.requests / (secs > 0 ? secs : 1));
	printf("started: %lu; rejected: %lu (", t.started, t.rejected);
	for (e = 0; e < 135; e++)
		if (t.rej_errno[e])
			printf(" %s %lu", e ? strerrorname_np((int)e) : "?", t.rej_errno[e]);
	printf(" )\ncompletions: %lu (started - completed: %ld); return_code >= 0: %lu; errors:",
	       t.completions, (long)(t.started - t.completions), t.comp_ok);
	for (e = 1; e < 135; e++)
		if (t.comp_errno[e])
			printf(" %s %lu", strerrorname_np((int)e) ?: "?", t.comp_errno[e]);
	printf("\nawaits: %lu (0: %lu, EINTR: %lu, EFAULT: %lu)\n", t.awaits, t.await0,
	       t.await_eintr, t.await_efault);
	printf("children: %lu _exit, %lu execve, %lu SIGKILL with calls pending; %lu threads exited with calls pending\n",
	       t.forks_exit, t.forks_exec, t.forks_kill, t.thread_exits);
	printf("signals: %lu sent, %d caught with SA_RESTART, %d without\n", signals_sent,
	       (int)caught_usr1, (int)caught_usr2);
	if (t.started != t.completions)
		printf("VIOLATION: %lu calls started, %lu completions\n", t.started, t.completions);
	failed = t.violations || t.started != t.completions;

	if (!opt.leakcheck) {
		CHECK(!failed, "no ABI violation, every started call completed (got %lu violation(s); "
		      "%lu started, %lu completed; no leak check: LEAKCHECK=0)",
		      t.violations, t.started, t.completions);
		printf("asys_fuzz: %s\n", failed ? "FAIL" : "PASS");
		return labtest_done();
	}
	ks1 = kernel_stack_settle(ks0);
	if (ks1 > ks0 + KSTACK_ONE_STACK_KB)
		ks1 = kernel_stack_settle_within(ks0, KSTACK_ONE_STACK_KB, 15);
	su1 = sunreclaim_settled();
	/* RCU frees late in a starved guest: only a value still too high waits longer */
	for (i = 0; i < 300 && su1 > su0 + (long)opt.slab_kb; i++) {
		usleep(100 * 1000);
		su1 = meminfo_kb("SUnreclaim");
	}
	read_slabinfo(&after);
	printf("KernelStack: %ld kB at the start, %ld kB at the end\n", ks0, ks1);
	printf("SUnreclaim: %ld kB at the start, %ld kB at the end (%+ld kB; %lu kB allowed)\n",
	       su0, su1, su1 - su0, opt.slab_kb);
	for (i = 0; i < (unsigned long)after.n; i++) {
		long d = after.objs[i], j;

		for (j = 0; j < before.n; j++)
			if (!strcmp(before.name[j], after.name[i]))
				d -= before.objs[j];
		if (d * after.size[i] >= 8192)
			printf("  slab %-24s %+ld objects of %ld bytes\n", after.name[i], d,
			       after.size[i]);
	}
	CHECK(ks1 <= ks0 + KSTACK_ONE_STACK_KB, "KernelStack back to its baseline (%ld -> %ld kB)",
	      ks0, ks1);
	CHECK(su1 <= su0 + (long)opt.slab_kb, "SUnreclaim within %lu kB of its baseline (%+ld kB)",
	      opt.slab_kb, su1 - su0);
	CHECK(!failed, "no ABI violation, every started call completed (got %lu violation(s); "
	      "%lu started, %lu completed)", t.violations, t.started, t.completions);
	if (failed || labtest_failures)
		printf("asys_fuzz: FAIL. reproduce: make fuzz SEED=%llu ITER=%lu SMP=%s\n", opt.seed,
		       opt.iter, getenv("LAB_SMP") ? getenv("LAB_SMP") : "1");
	else
		printf("asys_fuzz: PASS\n");
	return labtest_done();
}
