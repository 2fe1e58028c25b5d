/*
 * asys_errors: every error of asys_submit and asys_await_completion (asys-abi.md).
 *
 *   submit:  nr_requests 0 -> 0; unreadable requests or args -> EFAULT; syscall_nr < 0
 *            or not a call of this kernel -> ENOSYS; nr_args > 6 -> EINVAL; each call
 *            that cannot run on a fibril -> EINVAL; a rejected request stops the batch
 *            (return = the count started before it); kernel.asys_max_pending calls
 *            pending or uncollected -> EAGAIN, and submission works again once they
 *            are collected.
 *   await:   nothing pending -> 0 at once; unwritable comp -> EFAULT and the completion
 *            stays queued.
 * (ENOMEM cannot be provoked from a test.)
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define MAX_PENDING_FILE "/proc/sys/kernel/asys_max_pending"

static unsigned long noargs[ASYS_MAX_ARGS];

/* submit one request; return asys_submit's value and leave errno in *err */
static long submit1(int nr, unsigned long cookie, unsigned long *args, unsigned long nr_args, int *err)
{
	struct asys_input r;
	long ret;

	asys_req(&r, nr, cookie, args, nr_args);
	errno = 0;
	ret = asys_submit(&r, 1);
	*err = errno;
	return ret;
}

/* collect every completion (pending calls must be able to finish); return how many */
static int drain(void)
{
	struct asys_completion c;
	int n = 0;

	while (asys_await_completion(&c) == 1)
		n++;
	return n;
}

/* --- rejected requests --------------------------------------------------------- */

static void expect_reject(const char *what, int nr, unsigned long *args, unsigned long nr_args, int want)
{
	int err;
	long r = submit1(nr, 0xbad, args, nr_args, &err);

	CHECK(r == -1 && err == want, "%s: -1/%s (got %ld, errno %s)", what, asys_errname(want),
	      r, r == -1 ? asys_errname(err) : "-");
	if (r > 0)
		printf("  (the request was started; its completions: %d)\n", drain());
}

/* waitpid for up to ms; 1 when reaped */
static int reap_within(pid_t pid, int *status, int ms)
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
 * A call that cannot run on a fibril must be refused with EINVAL. Each probe runs in a
 * child process: a kernel that wrongly accepts exit, fork or sigreturn must not take
 * the test down with it. The child exits 0 when refused, 77 when an exit ran.
 */
static void expect_refused(int nr, const char *name)
{
	static char path[] = "/nonexistent-asys-probe";
	unsigned long args[ASYS_MAX_ARGS] = { 0 };
	int status = 0;
	pid_t child;

	switch (nr) {
	case 1: case 252:		/* exit, exit_group */
		args[0] = 77;
		break;
	case 11:			/* execve(path, NULL, NULL): ENOENT if it ever ran */
		args[0] = (unsigned long)path;
		break;
	case 358:			/* execveat(AT_FDCWD, path, NULL, NULL, 0) */
		args[0] = (unsigned long)AT_FDCWD;
		args[1] = (unsigned long)path;
		break;
	case 120:			/* clone(SIGCHLD, 0, ...): a fork if it ever ran */
		args[0] = SIGCHLD;
		break;
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		CHECK(child >= 0, "fork() for the %s probe", name);
		return;
	}
	if (child == 0) {
		struct asys_completion c;
		int err;
		long r;

		alarm(5);
		r = submit1(nr, nr, args, ASYS_MAX_ARGS, &err);
		if (r == -1 && err == EINVAL)
			_exit(0);
		printf("  %s through asys: submit returned %ld, errno %s\n", name, r,
		       r == -1 ? asys_errname(err) : "-");
		if (r == 1 && asys_await_completion(&c) == 1)
			printf("  %s through asys ran: return_code %ld\n", name, c.return_code);
		fflush(stdout);
		_exit(1);
	}
	if (!reap_within(child, &status, 6000)) {
		kill(child, SIGKILL);	/* stuck in the kernel (a vfork that ran?) */
		printf("  the %s probe did not finish in 6 s\n", name);
		if (!reap_within(child, &status, 5000))
			printf("  and cannot even be killed\n");
		status = -1;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s (%d) is refused with EINVAL%s", name, nr,
	      WIFEXITED(status) && WEXITSTATUS(status) == 77 ? " (it ran and exited the task!)" :
	      WIFSIGNALED(status) ? " (the probe died of a signal)" : "");
}

/* a batch of 5 whose request 3 is bad: returns 2, only requests 1 and 2 ran */
static void batch_stops_at(const char *what, int nr, unsigned long *args, unsigned long nr_args)
{
	struct asys_input reqs[5];
	struct asys_completion c;
	unsigned long wargs[3];
	int fds[2], n = 0, right = 1, avail = -1, i;
	long r;

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	wargs[0] = fds[1];
	wargs[1] = (unsigned long)"x";
	wargs[2] = 1;
	asys_req(&reqs[0], SYS_getpid, 1, noargs, 0);
	asys_req(&reqs[1], SYS_getpid, 2, noargs, 0);
	asys_req(&reqs[2], nr, 3, args, nr_args);
	asys_req(&reqs[3], SYS_write, 4, wargs, 3);
	asys_req(&reqs[4], SYS_write, 5, wargs, 3);
	r = asys_submit(reqs, 5);
	CHECK(r == 2, "batch of 5 with request 3 bad (%s): returns 2 (got %ld, errno %d)", what, r, r < 0 ? errno : 0);
	for (i = 0; i < 3 && asys_await_completion(&c) == 1; i++) {
		n++;
		if (c.cookie != 1 && c.cookie != 2)
			right = 0;
	}
	CHECK(n == 2 && right, "exactly 2 completions arrived, cookies 1 and 2 (%d, %s)", n, right ? "right cookies" : "WRONG cookies");
	ioctl(fds[0], FIONREAD, &avail);
	CHECK(avail == 0, "requests 4 and 5 (writes) were not started: the pipe is empty (%d bytes)", avail);
	close(fds[0]);
	close(fds[1]);
	drain();
}

/* --- kernel.asys_max_pending -------------------------------------------------- */

static char saved_max[32];	/* the sysctl's value as read, restored at exit */

static int write_max(const char *v)
{
	int fd = open(MAX_PENDING_FILE, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, v, strlen(v));
	close(fd);
	return n == (ssize_t)strlen(v) ? 0 : -1;
}

static void restore_max(void)
{
	if (saved_max[0])
		write_max(saved_max);	/* async-signal-safe: also the watchdog's hook */
}

static long read_max(void)
{
	char buf[32] = "";
	FILE *f = fopen(MAX_PENDING_FILE, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static void max_pending(void)
{
	enum { LIMIT = 4 };
	int fds[LIMIT][2], i, err;
	char bufs[LIMIT][4];
	unsigned long rargs[LIMIT][3];
	struct asys_input reqs[2];
	struct asys_completion c;
	long def, r;

	def = read_max();
	CHECK(def > 0, MAX_PENDING_FILE " exists and is positive (default %ld)", def);
	if (def <= 0)
		return;
	snprintf(saved_max, sizeof(saved_max), "%ld\n", def);
	atexit(restore_max);
	asys_watchdog_hook = restore_max;
	ok = write_max("4\n") == 0 && read_max() == LIMIT;
	REQUIRE(ok, "lower kernel.asys_max_pending to %d for this test", LIMIT);

	for (i = 0; i < LIMIT; i++) {
		ok = pipe(fds[i]) == 0;
		REQUIRE(ok, "pipe()");
		rargs[i][0] = fds[i][0];
		rargs[i][1] = (unsigned long)bufs[i];
		rargs[i][2] = sizeof(bufs[i]);
	}
	/* 3 blocked reads, then a batch of 2 that hits the limit after 1 */
	for (i = 0; i < 3; i++)
		CHECK(submit1(SYS_read, 100 + i, rargs[i], 3, &err) == 1, "blocked read %d is pending", i + 1);
	asys_req(&reqs[0], SYS_read, 103, rargs[3], 3);
	asys_req(&reqs[1], SYS_getpid, 200, noargs, 0);
	r = asys_submit(reqs, 2);
	CHECK(r == 1, "with 3 pending, a batch of 2 starts 1 and stops at the limit (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	r = submit1(SYS_read, 104, rargs[0], 3, &err);
	CHECK(r == -1 && err == EAGAIN, "4 calls pending: the next submit fails with EAGAIN (got %ld, errno %d)", r, err);
	r = submit1(SYS_getpid, 201, noargs, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "even a call that would not block: EAGAIN (got %ld, errno %d)", r, err);

	/* a completed but uncollected call still counts */
	ok = write(fds[0][1], "a", 1) == 1;
	REQUIRE(ok, "write to the first pipe");
	usleep(50 * 1000);
	r = submit1(SYS_getpid, 202, noargs, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "3 pending + 1 completed but uncollected: still EAGAIN (got %ld, errno %d)", r, err);
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 100 && c.return_code == 1,
	      "await collects the first read (returned %ld, cookie %lu, return_code %ld)", r, c.cookie, c.return_code);
	r = submit1(SYS_getpid, 203, noargs, 0, &err);
	CHECK(r == 1, "once it is collected, submission works again (returned %ld, errno %d)", r, err);
	r = submit1(SYS_getpid, 204, noargs, 0, &err);
	CHECK(r == -1 && err == EAGAIN, "3 pending + 1 uncollected getpid: EAGAIN (got %ld, errno %d)", r, err);

	/* complete everything, then submission works again */
	for (i = 1; i < LIMIT; i++) {
		ok = write(fds[i][1], "b", 1) == 1;
		REQUIRE(ok, "write to pipe %d", i + 1);
	}
	for (i = 0; i < LIMIT; i++)
		close(fds[i][1]);	/* EOF: even a read the limit failed to stop must end */
	r = drain();
	CHECK(r == 4, "the 3 reads and the getpid complete and are collected (%ld)", r);
	asys_req(&reqs[0], SYS_getpid, 205, noargs, 0);
	asys_req(&reqs[1], SYS_getpid, 206, noargs, 0);
	r = asys_submit(reqs, 2);
	CHECK(r == 2, "after completing them, submission works again (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(drain() == 2, "and both complete");
	for (i = 0; i < LIMIT; i++)
		close(fds[i][0]);

	restore_max();
	CHECK(read_max() == def, "kernel.asys_max_pending restored to %ld", def);
	saved_max[0] = 0;
}

int main(void)
{
	static const struct { int nr; const char *name; } refused[] = {
		{ 2, "fork" }, { 190, "vfork" }, { 120, "clone" }, { 435, "clone3" },
		{ 11, "execve" }, { 358, "execveat" }, { 1, "exit" }, { 252, "exit_group" },
		{ 119, "sigreturn" }, { 173, "rt_sigreturn" },
		{ __NR_asys_submit, "asys_submit" }, { __NR_asys_await_completion, "asys_await_completion" },
	};
	static const int nosys[] = { -1, INT_MIN, 500, 1000, 100000 };
	long page = sysconf(_SC_PAGESIZE), r;
	char *two, *ro;
	struct asys_input req, *edge;
	struct asys_completion c;
	unsigned long args7[7] = { 0 };
	unsigned int i;
	double t0;
	int err;

	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");

	/* two pages: the first readable, the second PROT_NONE */
	two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok = two != MAP_FAILED && mprotect(two + page, page, PROT_NONE) == 0;
	REQUIRE(ok, "mmap a page followed by a PROT_NONE page");
	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(ro != MAP_FAILED, "mmap a PROT_READ page");

	asys_watchdog_step = "nr_requests 0";
	asys_req(&req, SYS_getpid, 1, noargs, 0);
	r = asys_submit(&req, 0);
	CHECK(r == 0, "nr_requests 0 returns 0 (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_submit(NULL, 0);
	CHECK(r == 0, "nr_requests 0 with requests NULL returns 0 too: nothing is read (got %ld)", r);

	asys_watchdog_step = "EFAULT";
	r = asys_submit((struct asys_input *)(two + page), 1);
	CHECK(r == -1 && errno == EFAULT, "requests on a PROT_NONE page: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_submit(NULL, 1);
	CHECK(r == -1 && errno == EFAULT, "requests NULL: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	expect_reject("args on a PROT_NONE page", SYS_getpid, (unsigned long *)(two + page), 1, EFAULT);
	expect_reject("args straddling into a PROT_NONE page", SYS_getpid,
		      (unsigned long *)(two + page - sizeof(long)), 2, EFAULT);
	/* request 1 readable at the end of the page, request 2 in the PROT_NONE page */
	edge = (struct asys_input *)(two + page) - 1;
	asys_req(edge, SYS_getpid, 42, noargs, 0);
	r = asys_submit(edge, 2);
	CHECK(r == 1, "2 requests, the second unreadable: 1 started (got %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(asys_await_completion(&c) == 1 && c.cookie == 42 && asys_await_completion(&c) == 0,
	      "and exactly one completion, the first request's");

	asys_watchdog_step = "args NULL with nr_args 0";
	r = submit1(SYS_getpid, 43, NULL, 0, &err);
	CHECK(r == 1, "args NULL with nr_args 0 is fine: there is nothing to read (got %ld, errno %d)", r, err);
	CHECK(drain() == (r == 1), "its completion arrives");

	asys_watchdog_step = "ENOSYS";
	for (i = 0; i < sizeof(nosys) / sizeof(nosys[0]); i++) {
		char what[48];

		snprintf(what, sizeof(what), "syscall_nr %d", nosys[i]);
		expect_reject(what, nosys[i], noargs, 0, ENOSYS);
	}

	asys_watchdog_step = "nr_args";
	expect_reject("nr_args 7", SYS_getpid, args7, 7, EINVAL);
	expect_reject("nr_args ULONG_MAX", SYS_getpid, args7, ULONG_MAX, EINVAL);
	r = submit1(SYS_getpid, 44, noargs, ASYS_MAX_ARGS, &err);
	CHECK(r == 1, "nr_args 6 is accepted (got %ld, errno %d)", r, err);
	CHECK(drain() == (r == 1), "its completion arrives");

	asys_watchdog_step = "refused calls";
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		expect_refused(refused[i].nr, refused[i].name);

	asys_watchdog_step = "a rejected request stops the batch";
	batch_stops_at("nr_args 7", SYS_getpid, args7, 7);
	batch_stops_at("syscall_nr -1", -1, noargs, 0);
	batch_stops_at("unreadable args", SYS_getpid, (unsigned long *)(two + page), 1);

	asys_watchdog_step = "await with nothing pending";
	t0 = asys_now_ms();
	r = asys_await_completion(&c);
	CHECK(r == 0 && asys_now_ms() - t0 < 50, "await with nothing pending returns 0 at once (got %ld, %.2f ms)",
	      r, asys_now_ms() - t0);

	asys_watchdog_step = "await EFAULT";
	r = submit1(SYS_getpid, 0x77, noargs, 0, &err);
	REQUIRE(r == 1, "submit getpid (cookie 0x77)");
	r = asys_await_completion((struct asys_completion *)ro);
	CHECK(r == -1 && errno == EFAULT, "await into a PROT_READ page: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_await_completion(NULL);
	CHECK(r == -1 && errno == EFAULT, "await into NULL: EFAULT (got %ld, errno %d)", r, r < 0 ? errno : 0);
	memset(&c, 0, sizeof(c));
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 0x77 && c.return_code == getpid(),
	      "the completion was not lost: await returns it afterwards (got %ld, cookie 0x%lx, return_code %ld)",
	      r, c.cookie, c.return_code);
	CHECK(asys_await_completion(&c) == 0, "and then nothing is left");

	asys_watchdog_step = "EAGAIN at kernel.asys_max_pending";
	max_pending();
	return labtest_done();
}
