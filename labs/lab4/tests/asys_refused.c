/*
 * asys_refused (exercise 4): a call that cannot run on a fibril is refused with EINVAL
 * before anything starts: fork, vfork, clone, clone3, execve, execveat, exit,
 * exit_group, sigreturn, rt_sigreturn, asys_submit, asys_await_completion, and the
 * extras the ABI lets an implementation document (restart_syscall, the calls that swap
 * the signal mask, access/faccessat, unshare/setns, sendfile/copy_file_range, vm86, and
 * the calls that change the thread's credentials: set*id, setgroups, capset, prctl's
 * PR_SET_KEEPCAPS, PR_CAPBSET_DROP, PR_SET_SECUREBITS and PR_CAP_AMBIENT).
 *
 * Every probe runs in a child (alarm 15 s, reaped within 20 s) so that a kernel that
 * wrongly runs exit or fork on a fibril cannot take the test down. A correct kernel
 * answers a probe at once: the bounds only catch a hang, far above what a loaded host
 * does. A kernel without the check would run these calls on a fibril, which for most
 * of them is fatal for the guest, so the test first probes calls that are harmless
 * even when they run (execve and execveat of a file that does not exist, clone and
 * clone3 with invalid arguments, a nested asys_submit of nothing) and only probes the
 * rest when those were refused.
 * Calls that must still work through asys (getppid, clock_nanosleep, openat + close,
 * fsync, pause interrupted by a signal in the child) are checked last.
 * Refused for their arguments: io_uring_enter with a signal mask, close_range with
 * CLOSE_RANGE_UNSHARE. And while calls run, the main chain's own unshare(), setns() and
 * close_range(CLOSE_RANGE_UNSHARE) give EBUSY.
 * Contract: a refused call gets EINVAL from asys_submit itself (-1, errno EINVAL), and
 *   nothing of it runs; the main chain's setns(-1, 0) while a call runs gives EBUSY, not
 *   the EBADF of looking the file descriptor up: the busy check comes first.
 */
#include <fcntl.h>
#include <sched.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static char nopath[] = "/nonexistent-asys-probe";

/* run one probe in a child; 1 when submit refused it with -1/EINVAL */
static int probe_args(int nr, const char *name, unsigned long *args, int harmless)
{
	int status = 0;
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child < 0) {
		CHECK(child >= 0, "fork() for the %s probe", name);
		return 0;
	}
	if (child == 0) {
		struct asys_completion c;
		int err;
		long r;

		alarm(15);
		r = asys_submit1(nr, nr, args, ASYS_MAX_ARGS, &err);
		if (r == -1 && err == EINVAL)
			_exit(0);
		printf("  %s through asys: submit returned %ld, errno %s\n", name, r,
		       r == -1 ? asys_errname(err) : "-");
		if (r == 1 && harmless && asys_await_completion(&c) == 1)
			printf("  %s ran on a fibril: return_code %ld\n", name, c.return_code);
		fflush(stdout);
		_exit(r == 1 ? 1 : 2);	/* 1: accepted and started; 2: another answer */
	}
	if (!asys_reap_within(child, &status, 20000)) {
		kill(child, SIGKILL);
		printf("  the %s probe did not finish in 20 s\n", name);
		if (!asys_reap_within(child, &status, 5000))
			printf("  and cannot even be killed\n");
		status = -1;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "%s (%d) is refused with EINVAL (got: %s)", name, nr,
	      status == -1 ? "the probe hung" :
	      WIFSIGNALED(status) ? "the probe died of a signal" :
	      WEXITSTATUS(status) == 0 ? "EINVAL" :
	      WEXITSTATUS(status) == 1 ? "submit accepted it and started the call" :
	      "another answer, printed above");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int probe(int nr, const char *name, unsigned long a0, unsigned long a1, int harmless)
{
	unsigned long args[ASYS_MAX_ARGS] = { a0, a1 };

	return probe_args(nr, name, args, harmless);
}

/*
 * While calls run, the main chain may not swap what they use without a reference:
 * unshare(), setns() and close_range(CLOSE_RANGE_UNSHARE) give EBUSY; once the calls
 * are collected they work again.
 */
static void main_chain_busy(void)
{
	unsigned long rargs[3];
	char buf[1];
	int fds[2], err, e;
	long r;

	if (pipe(fds) < 0) {
		CHECK(0, "pipe() for the main-chain checks");
		return;
	}
	rargs[0] = fds[0];
	rargs[1] = (unsigned long)buf;
	rargs[2] = 1;
	r = asys_submit1(SYS_read, 0xb5, rargs, 3, &err);
	CHECK(r == 1, "a pipe read is pending (submit returned %ld)", r);
	if (r != 1)
		return;
	errno = 0;
	r = syscall(310 /* unshare */, 0x00000400 /* CLONE_FILES */);
	e = errno;
	CHECK(r == -1 && e == EBUSY, "unshare(CLONE_FILES) on the main chain while a call runs: %ld, errno %s (want EBUSY)",
	      r, asys_errname(e));
	errno = 0;
	r = syscall(346 /* setns */, -1, 0);
	e = errno;
	CHECK(r == -1 && e == EBUSY, "setns() on the main chain while a call runs: %ld, errno %s (want EBUSY)",
	      r, asys_errname(e));
	errno = 0;
	r = syscall(436 /* close_range */, 1000, 1001, 2 /* CLOSE_RANGE_UNSHARE */);
	e = errno;
	CHECK(r == -1 && e == EBUSY, "close_range(CLOSE_RANGE_UNSHARE) while a call runs: %ld, errno %s (want EBUSY)",
	      r, asys_errname(e));
	r = syscall(436 /* close_range */, 1000, 1001, 0);
	CHECK(r == 0, "close_range() without CLOSE_RANGE_UNSHARE works while a call runs: %ld", r);
	if (write(fds[1], "x", 1) != 1 || asys_collect(1) != 1) {
		CHECK(0, "the pending read completes after a write");
		return;
	}
	r = syscall(310 /* unshare */, 0x00000400 /* CLONE_FILES */);
	CHECK(r == 0, "with the call collected, unshare(CLONE_FILES) works again: %ld", r);
	errno = 0;
	r = syscall(346 /* setns */, -1, 0);
	e = errno;
	CHECK(r == -1 && e == EBADF, "and setns(-1, 0) gives EBADF again, as without calls: %ld, errno %s",
	      r, asys_errname(e));
	r = syscall(436 /* close_range */, 1000, 1001, 2 /* CLOSE_RANGE_UNSHARE */);
	CHECK(r == 0, "and close_range(CLOSE_RANGE_UNSHARE) works again: %ld", r);
	close(fds[0]);
	close(fds[1]);
}

static void allowed(int nr, const char *name, unsigned long *args, unsigned long n, long want)
{
	struct asys_completion c;
	int err;
	long r = asys_submit1(nr, 0xa11, args, n, &err);

	CHECK(r == 1, "%s is allowed (submit returned %ld, errno %s)", name, r, r < 0 ? asys_errname(err) : "-");
	if (r != 1)
		return;
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.return_code == want, "%s completed with %ld (want %ld)", name, c.return_code, want);
}

int main(void)
{
	static const struct { int nr; const char *name; } dangerous[] = {
		{ 2, "fork" }, { 190, "vfork" }, { 1, "exit" }, { 252, "exit_group" },
		{ 119, "sigreturn" }, { 173, "rt_sigreturn" },
		{ __NR_asys_await_completion, "asys_await_completion" },
		/* documented extras */
		{ 0, "restart_syscall" }, { 72, "sigsuspend" }, { 179, "rt_sigsuspend" },
		{ 177, "rt_sigtimedwait" }, { 421, "rt_sigtimedwait_time64" },
		{ 308, "pselect6" }, { 413, "pselect6_time64" }, { 309, "ppoll" }, { 414, "ppoll_time64" },
		{ 319, "epoll_pwait" }, { 441, "epoll_pwait2" }, { 385, "io_pgetevents" },
		{ 416, "io_pgetevents_time64" }, { 113, "vm86old" }, { 166, "vm86" },
		{ 33, "access" }, { 307, "faccessat" }, { 439, "faccessat2" },
		{ 310, "unshare" }, { 346, "setns" },
		{ 187, "sendfile" }, { 239, "sendfile64" }, { 377, "copy_file_range" },
	};
	struct { long long s, ns; } ts64 = { 0, 50 * 1000 * 1000 };
	unsigned long args[4];
	unsigned int i;
	int harmless = 1, fd;

	asys_watchdog(120);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	asys_watchdog_step = "harmless probes";
	harmless &= probe(11, "execve", (unsigned long)nopath, 0, 1);
	harmless &= probe(358, "execveat", (unsigned long)AT_FDCWD, (unsigned long)nopath, 1);
	/* CLONE_SIGHAND without CLONE_VM: clone() itself says EINVAL before anything */
	harmless &= probe(120, "clone", 0x00000800 /* CLONE_SIGHAND */, 0, 1);
	harmless &= probe(435, "clone3", 0, 0, 1);		/* clone3(NULL, 0): EINVAL */
	harmless &= probe(__NR_asys_submit, "asys_submit", 0, 0, 1);	/* nothing to submit */
	{
		/* refused for their arguments: io_uring_enter(-1, ..., sigmask), close_range(UNSHARE) */
		static unsigned long long sigmask;
		unsigned long uring[ASYS_MAX_ARGS] = { (unsigned long)-1, 0, 0, 0,
						      (unsigned long)&sigmask, 8 };
		unsigned long range[ASYS_MAX_ARGS] = { 1000, 1001, 2 /* CLOSE_RANGE_UNSHARE */ };

		/* harmless when they run (EBADF; a child's own file table) */
		probe_args(426, "io_uring_enter with a signal mask", uring, 1);
		uring[5] = 0;	/* the mask is argp; its size is not what refuses it */
		probe_args(426, "io_uring_enter with a signal mask and argsz 0", uring, 1);
		probe_args(436, "close_range(CLOSE_RANGE_UNSHARE)", range, 1);
	}

	asys_watchdog_step = "calls that change the thread's credentials";
	{
		/*
		 * Harmless here even if they ran: a child, root, setting what it has
		 * (-1: unchanged; capset(NULL, NULL): EFAULT).
		 */
		static const struct { int nr; const char *name; } cred[] = {
			{ 23, "setuid" }, { 46, "setgid" }, { 70, "setreuid" }, { 71, "setregid" },
			{ 164, "setresuid" }, { 170, "setresgid" }, { 138, "setfsuid" },
			{ 139, "setfsgid" }, { 81, "setgroups" }, { 213, "setuid32" },
			{ 214, "setgid32" }, { 203, "setreuid32" }, { 204, "setregid32" },
			{ 208, "setresuid32" }, { 210, "setresgid32" }, { 215, "setfsuid32" },
			{ 216, "setfsgid32" }, { 206, "setgroups32" }, { 185, "capset" },
		};
		unsigned long pr[ASYS_MAX_ARGS] = { 0 };

		for (i = 0; i < sizeof(cred) / sizeof(cred[0]); i++)
			probe(cred[i].nr, cred[i].name, cred[i].nr == 185 ? 0 : (unsigned long)-1,
			      cred[i].nr == 185 ? 0 : (unsigned long)-1, 1);
		/* prctl's options that commit credentials, with values that change nothing */
		pr[0] = 8, pr[1] = 1;	/* PR_SET_KEEPCAPS 1: a child's, harmless */
		probe_args(172, "prctl(PR_SET_KEEPCAPS)", pr, 1);
		pr[0] = 24, pr[1] = 63;	/* PR_CAPBSET_DROP of no capability: EINVAL */
		probe_args(172, "prctl(PR_CAPBSET_DROP)", pr, 1);
		pr[0] = 28, pr[1] = 0;	/* PR_SET_SECUREBITS 0 */
		probe_args(172, "prctl(PR_SET_SECUREBITS)", pr, 1);
		pr[0] = 47, pr[1] = 4;	/* PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL */
		probe_args(172, "prctl(PR_CAP_AMBIENT)", pr, 1);
	}

	asys_watchdog_step = "the other refused calls";
	if (!harmless) {
		CHECK(0, "the calls that are fatal on a fibril (fork, exit, sigreturn, ...) are not probed: "
		      "expected the harmless ones refused first, got them started on a fibril");
	} else {
		for (i = 0; i < sizeof(dangerous) / sizeof(dangerous[0]); i++)
			probe(dangerous[i].nr, dangerous[i].name, 0, 0, 0);
	}

	asys_watchdog_step = "the main chain while calls run";
	main_chain_busy();

	asys_watchdog_step = "calls that stay allowed";
	allowed(SYS_getppid, "getppid", NULL, 0, getppid());
	args[0] = CLOCK_MONOTONIC;
	args[1] = 0;
	args[2] = (unsigned long)&ts64;
	args[3] = 0;
	allowed(407, "clock_nanosleep_time64 50 ms", args, 4, 0);
	fd = open("/proc/self/status", O_RDONLY);
	args[0] = (unsigned long)AT_FDCWD;
	args[1] = (unsigned long)"/proc/self/status";
	args[2] = O_RDONLY;
	args[3] = 0;
	allowed(SYS_openat, "openat", args, 4, fd + 1);
	args[0] = fd + 1;
	allowed(SYS_close, "close", args, 1, 0);
	args[0] = fd;
	allowed(SYS_fsync, "fsync on a /proc file", args, 1, -EINVAL);
	{
		/* no signal mask (argp NULL), whatever argsz says: it runs, EBADF for fd -1 */
		unsigned long uring[ASYS_MAX_ARGS] = { (unsigned long)-1, 0, 0, 0, 0, 8 };

		allowed(426, "io_uring_enter without a signal mask", uring, 6, -EBADF);
	}
	args[0] = 7;	/* PR_GET_KEEPCAPS: prctl that only reads stays allowed */
	allowed(172, "prctl(PR_GET_KEEPCAPS)", args, 1, 0);
	args[0] = 47, args[1] = 1, args[2] = 0;	/* PR_CAP_AMBIENT_IS_SET CAP_CHOWN: reads */
	allowed(172, "prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET)", args, 3, 0);
	allowed(SYS_getuid32, "getuid32", NULL, 0, getuid());
	close(fd);
	return labtest_done();
}
