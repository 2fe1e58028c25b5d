/*
 * asys_pipe: a call that blocks stays pending while asys_submit returns; a call that
 * does not block runs inline.
 *
 *   1. read(pipe, buf, 5) on an empty pipe, through asys: asys_submit returns 1 though
 *      nobody will write until it has returned (a submit that waited for the read would
 *      hang: the watchdog names the step); 200 ms later the call is still pending (buf
 *      untouched); main writes "hello" and await returns: return_code 5, our cookie,
 *      "hello" in buf.
 *   2. the same read, but main goes into await first: a child writes "world" only
 *      once main has submitted and told it to, so await can only return with the
 *      child's bytes: 5, the cookie and "world".
 *   3. getpid through asys: submit returns 1 and await returns its completion,
 *      return_code = our pid (asys_inline shows that it ran inline).
 *
 * Nothing here is timed: a loaded host may take seconds over any step, and a step that
 * never ends is a hang the watchdog reports.
 *   4. main close()s the read end while the asys read sleeps on it: the pending call
 *      holds its own reference to the file (fdget() must not take its no-reference
 *      shortcut in a task with asys calls running), so the pipe still has a reader,
 *      main's write succeeds (no EPIPE) and the read completes with the byte.
 */
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"
#include "procwait.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

#define COOKIE_READ1	0x1234abcdUL
#define COOKIE_READ2	0xfeed0002UL
#define COOKIE_GETPID	0x600dUL

int main(void)
{
	int fds[2], go[2], status;
	char buf[16];
	unsigned long args[3], noargs[1] = { 0 };
	struct asys_input req;
	struct asys_completion c;
	long r;
	pid_t child;

	asys_watchdog(20);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");

	/* 1. a pending read, completed by main's own write */
	asys_watchdog_step = "1: read on an empty pipe";
	memset(buf, 0, sizeof(buf));
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 5;
	asys_req(&req, SYS_read, COOKIE_READ1, args, 3);
	r = asys_submit(&req, 1);
	CHECK(r == 1, "asys_submit(read on an empty pipe) returned, having started 1 request (returned %ld, errno %d)",
	      r, r < 0 ? errno : 0);
	usleep(200 * 1000);
	CHECK(buf[0] == 0, "200 ms later the read is still pending: the buffer is untouched");
	ok = write(fds[1], "hello", 5) == 5;
	REQUIRE(ok, "main writes \"hello\" into the pipe");
	asys_watchdog_step = "1: await the read completed by main's write";
	r = asys_await_completion(&c);
	CHECK(r == 1, "await returned 1 (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(c.return_code == 5, "return_code is 5, the bytes read (got %ld)", c.return_code);
	CHECK(c.cookie == COOKIE_READ1, "the cookie came back unchanged (0x%lx)", c.cookie);
	CHECK(memcmp(buf, "hello", 5) == 0, "the bytes are in the buffer (\"%.5s\")", buf);

	/* 2. await blocks until another task writes */
	asys_watchdog_step = "2: await blocks until the child writes";
	memset(buf, 0, sizeof(buf));
	ok = pipe(go) == 0;
	REQUIRE(ok, "pipe() for the go-ahead");
	child = fork();
	if (child < 0)
		REQUIRE(child >= 0, "fork() a writer");
	if (child == 0) {
		char c;

		/* write only after main has submitted and gone to sleep in await */
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		while (proc_state(getppid()) != 'S')
			usleep(1000);
		_exit(write(fds[1], "world", 5) == 5 ? 0 : 1);
	}
	asys_req(&req, SYS_read, COOKIE_READ2, args, 3);
	r = asys_submit(&req, 1);
	CHECK(r == 1, "submit of the second read returned 1 (returned %ld)", r);
	ok = write(go[1], "g", 1) == 1;
	REQUIRE(ok, "tell the writer to go");
	r = asys_await_completion(&c);
	CHECK(r == 1, "await returned 1 once the child wrote (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(c.return_code == 5 && c.cookie == COOKIE_READ2,
	      "completion: return_code %ld (want 5), cookie 0x%lx (want 0x%lx)", c.return_code, c.cookie, COOKIE_READ2);
	CHECK(memcmp(buf, "world", 5) == 0, "the child's bytes are in the buffer (\"%.5s\")", buf);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the writer exited cleanly");

	/* 3. a call that does not block runs inline */
	asys_watchdog_step = "3: getpid inline";
	asys_req(&req, SYS_getpid, COOKIE_GETPID, noargs, 0);
	r = asys_submit(&req, 1);
	CHECK(r == 1, "asys_submit(getpid) returned 1 (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	r = asys_await_completion(&c);
	CHECK(r == 1, "await of getpid returned 1 (returned %ld, errno %d)", r, r < 0 ? errno : 0);
	CHECK(c.return_code == getpid() && c.cookie == COOKIE_GETPID,
	      "getpid completion: return_code %ld (pid %d), cookie 0x%lx", c.return_code, getpid(), c.cookie);

	/* 4. close the fd under a pending read */
	asys_watchdog_step = "4: close() under a pending read";
	signal(SIGPIPE, SIG_IGN);
	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	memset(buf, 0, sizeof(buf));
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 1;
	asys_req(&req, SYS_read, 0xc105e, args, 3);
	r = asys_submit(&req, 1);
	REQUIRE(r == 1, "asys read on an empty pipe is pending");
	CHECK(close(fds[0]) == 0, "main closes the read end while the read sleeps on it");
	r = write(fds[1], "z", 1);
	CHECK(r == 1, "the pending read still holds the file: the write finds a reader (returned %ld, %s)",
	      r, r < 0 ? strerror(errno) : "ok");
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 0xc105e && c.return_code == 1 && buf[0] == 'z',
	      "the read completes with the byte (await %ld, cookie 0x%lx, return_code %ld)", r, c.cookie, c.return_code);
	close(fds[1]);
	return labtest_done();
}
