/*
 * asys_watched: a call on a fibril does not pass the system call entry, so a task whose
 * system calls are watched or diverted there gets EPERM for each request it submits
 * (docs/asys-abi.md), and the check is made for every request: an earlier request of
 * the same batch can make the task watched.
 *
 *   1. control: [getpid] starts (1).
 *   2. [ptrace(PTRACE_TRACEME), getpid, getpid]: the first request makes the task
 *      traced, so the batch stops after it: asys_submit returns 1, and a later
 *      submit gives -1/EPERM. (Checked once per batch, all three ran untraced: 3.)
 *   3. syscall user dispatch on (PR_SET_SYSCALL_USER_DISPATCH, selector "allow"): a
 *      submit gives -1/EPERM, where a dispatched program expects SIGSYS for calls it
 *      did not allow.
 *   4. seccomp: [seccomp(SECCOMP_SET_MODE_FILTER, allow-all), getpid] returns 1. Skipped,
 *      with a line that says so, when the kernel has no seccomp (the lab config).
 * Each scenario runs in a child of its own: a traced or filtered task stays so.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include "labtest.h"
#include "asys_test.h"

#define NR_getpid	20
#define NR_ptrace	26
#define NR_seccomp	354
#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#define PR_SYS_DISPATCH_ON		1
#define SYSCALL_DISPATCH_FILTER_ALLOW	0
#endif

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

/* a batch of n requests; returns asys_submit's value, errno in *err */
static long submit(struct asys_input *reqs, int n, int *err)
{
	long r;

	errno = 0;
	r = asys_submit(reqs, n);
	*err = errno;
	return r;
}

static int scenario_traceme(void)
{
	struct asys_input reqs[3];
	unsigned long targs[4] = { PTRACE_TRACEME, 0, 0, 0 };
	int err, bad = 0;
	long r, started;

	asys_req(&reqs[0], NR_ptrace, 1, targs, 4);
	asys_req(&reqs[1], NR_getpid, 2, asys_noargs, 0);
	asys_req(&reqs[2], NR_getpid, 3, asys_noargs, 0);
	r = submit(reqs, 3, &err);
	started = r > 0 ? r : 0;
	if (r != 1) {
		printf("# 2: [TRACEME, getpid, getpid] returned %ld (errno %s), want 1: the requests after TRACEME ran untraced\n",
		       r, asys_errname(err));
		bad = 1;
	}
	r = asys_submit1(NR_getpid, 4, asys_noargs, 0, &err);
	started += r > 0 ? r : 0;
	if (r != -1 || err != EPERM) {
		printf("# 2: a submit while traced returned %ld (errno %s), want -1/EPERM\n", r,
		       asys_errname(err));
		bad = 1;
	}
	/* count, never rely on await returning 0: the start tree's await would wait */
	asys_collect(started);
	return bad;
}

static char dispatch_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

static int scenario_dispatch(void)
{
	int err;
	long r;

	/* the region [0, 1) is never executed: every call is subject to the selector */
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 1, &dispatch_selector)) {
		printf("# 3: PR_SET_SYSCALL_USER_DISPATCH failed: %s\n", strerror(errno));
		return 2;
	}
	r = asys_submit1(NR_getpid, 5, asys_noargs, 0, &err);
	if (r != -1 || err != EPERM) {
		printf("# 3: a submit under syscall user dispatch returned %ld (errno %s), want -1/EPERM\n",
		       r, asys_errname(err));
		asys_collect(r > 0 ? r : 0);
		return 1;
	}
	return 0;
}

static int scenario_seccomp(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	unsigned long sargs[3] = { SECCOMP_SET_MODE_FILTER, 0, (unsigned long)&prog };
	struct asys_input reqs[2];
	struct asys_completion c;
	int err;
	long r;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return 2;
	asys_req(&reqs[0], NR_seccomp, 6, sargs, 3);
	asys_req(&reqs[1], NR_getpid, 7, asys_noargs, 0);
	r = submit(reqs, 2, &err);
	if (r >= 1 && asys_await_completion(&c) == 1 && c.cookie == 6 && c.return_code == -ENOSYS) {
		asys_collect(r - 1);
		return 3;	/* no seccomp in this kernel */
	}
	asys_collect(r > 1 ? r - 1 : 0);
	if (r != 1) {
		printf("# 4: [seccomp(filter), getpid] returned %ld (errno %s), want 1\n", r,
		       asys_errname(err));
		return 1;
	}
	return 0;
}

/* run fn in a child; its exit status */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	int err, rc;
	long r;

	asys_watchdog(20);
	ok = asys_present();
	REQUIRE(ok, "asys_submit exists");

	r = asys_submit1(NR_getpid, 0, asys_noargs, 0, &err);
	CHECK(r == 1, "1: control: [getpid] starts: %ld", r);
	asys_collect(r > 0 ? r : 0);

	rc = in_child(scenario_traceme);
	CHECK(rc == 0, "2: PTRACE_TRACEME in a batch stops the rest of it, and later submits get EPERM (child: %d)",
	      rc);
	rc = in_child(scenario_dispatch);
	CHECK(rc == 0, "3: syscall user dispatch: EPERM (child: %d)", rc);
	rc = in_child(scenario_seccomp);
	if (rc == 3)
		printf("# 4: skipped: this kernel has no seccomp (seccomp() gives ENOSYS)\n");
	else
		CHECK(rc == 0, "4: a seccomp filter installed by a request stops the rest of the batch (child: %d)",
		      rc);
	return labtest_done();
}
