/*
 * asys_held_creds: credentials the thread replaces while its calls run stay alive until
 * no call runs.
 *
 * A system call may use current_cred() without a reference while it runs: in 6.1 only
 * the thread itself replaces its credentials, between its calls. With asys, the main
 * chain's setgid() commits new credentials while a call sleeps on a fibril, perhaps
 * holding the old ones; freeing them then would be a use after free that nothing
 * reports on i386 (no KASAN). So the kernel holds them, and counts in
 * /sys/kernel/debug/fibrils/held_creds what it held and released.
 *
 *   1. With no call pending, setgid() holds nothing (the synchronous case).
 *   2. With a pipe read pending, two setgid()s hold 2; collecting the read releases both.
 *   3. The race: 4 reads pending and 200 setgid()s on the main chain while a child
 *      writes to the pipes; every read completes with its byte, everything held is
 *      released once the last is collected, and the kernel log stays clean (the
 *      harness checks it).
 * Runs as root in the guest: setgid(1) and back to 0 needs CAP_SETGID, which stays.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

#define HELD_FILE "/sys/kernel/debug/fibrils/held_creds"
#define PENDING 4
#define TOGGLES 200

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static int read_held(long *held, long *released)
{
	return read_counter_pair(HELD_FILE, "held", "released", held, released);
}

/* setgid() there and back: two commits of new credentials */
static int toggle_gid(void)
{
	return syscall(SYS_setgid32, 1) == 0 && syscall(SYS_setgid32, 0) == 0;
}

static int submit_read(int fd, char *buf, unsigned long cookie)
{
	unsigned long args[ASYS_MAX_ARGS] = { fd, (unsigned long)buf, 1 };
	int err;

	return asys_submit1(SYS_read, cookie, args, 3, &err) == 1;
}

int main(void)
{
	int fds[PENDING][2], i, right = 0, toggled = 1;
	long h0, r0, h, r;
	char bufs[PENDING];
	struct asys_completion c;
	pid_t writer;

	ok = asys_present();
	REQUIRE(ok, "asys_submit is a system call of this kernel");
	ok = read_held(&h0, &r0) == 0;
	REQUIRE(ok, "%s can be read: the kernel keeps replaced credentials", HELD_FILE);
	REQUIRE(getuid() == 0, "the test runs as root (setgid back to 0)");
	asys_watchdog(60);

	asys_watchdog_step = "setgid with no call pending";
	CHECK(toggle_gid() && read_held(&h, &r) == 0 && h == h0 && r == r0,
	      "with no call pending, setgid() holds nothing (held %ld -> %ld)", h0, h);

	asys_watchdog_step = "setgid with a read pending";
	for (i = 0; i < PENDING; i++)
		REQUIRE(pipe(fds[i]) == 0, "pipe()");
	ok = submit_read(fds[0][0], &bufs[0], 0);
	REQUIRE(ok, "a read of an empty pipe is submitted");
	CHECK(toggle_gid() && read_held(&h, &r) == 0 && h == h0 + 2 && r == r0,
	      "with a read pending, two setgid()s hold 2 (held %ld -> %ld, released %ld -> %ld)",
	      h0, h, r0, r);
	CHECK(write(fds[0][1], "a", 1) == 1 && asys_await_completion(&c) == 1 &&
	      c.return_code == 1, "the read completes with its byte (%ld)", c.return_code);
	CHECK(read_held(&h, &r) == 0 && r == r0 + 2,
	      "collecting it, with no call running, releases both (released %ld -> %ld)", r0, r);

	asys_watchdog_step = "the race: setgid on the main chain, reads on fibrils";
	read_held(&h0, &r0);
	for (i = 0; i < PENDING; i++)
		REQUIRE(submit_read(fds[i][0], &bufs[i], 10 + i), "read %d is submitted", i);
	writer = fork();
	if (writer == 0) {
		for (i = 0; i < PENDING; i++) {
			usleep(20 * 1000);
			if (write(fds[i][1], "b", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < TOGGLES; i++)
		toggled &= toggle_gid();
	CHECK(toggled, "%d setgid()s there and back succeed while reads are pending",
	      TOGGLES);
	for (i = 0; i < PENDING; i++)
		if (asys_await_completion(&c) == 1 && c.return_code == 1 &&
		    c.cookie >= 10 && c.cookie < 10 + PENDING && bufs[c.cookie - 10] == 'b')
			right++;
	waitpid(writer, NULL, 0);
	CHECK(right == PENDING, "all %d reads complete with their byte (%d did)", PENDING,
	      right);
	CHECK(read_held(&h, &r) == 0 && h - h0 == r - r0 && h > h0,
	      "what was held during the race (%ld) is all released once no call runs (%ld)",
	      h - h0, r - r0);
	return labtest_done();
}
