/*
 * asys_exit_uring: a task that exits with an io_uring call pending leaves io_uring
 * clean, as a task that made the same call synchronously does.
 *
 * do_exit() lets io_uring forget the task (io_uring_files_cancel(): the task's
 * io_uring context drops every ring it used) and then ends the task's asys calls. If
 * the calls end after io_uring has forgotten the task, a call that enters io_uring in
 * that window (it had not run yet, or was waiting) registers the task with the ring
 * again, and nobody unregisters it: __io_uring_free() warns when the task is freed, and
 * the ring's exit work warns that it cannot reach the task, or waits for it for ever.
 * A synchronous io_uring_enter() always returns before its thread reaches do_exit().
 *
 * Each of ROUNDS children sets up a ring, submits io_uring_enter(ring, 1, 0, 0) (one
 * entry to submit: the ring's submission queue is empty, so it submits nothing, but it
 * registers the task with the ring first), and calls exit_group() at once. The parent
 * reaps each child and then reads the kernel's log for what io_uring said. First the
 * same round with the call made synchronously, the oracle: it must be clean on any
 * kernel.
 */
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

#define ROUNDS 20

static int ring_setup(void)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	return syscall(SYS_io_uring_setup, 4, &p);
}

/* one child: a ring, io_uring_enter(ring, 1, 0, 0) synchronously or through asys, exit */
static void child(int through_asys)
{
	int ring = ring_setup(), err;
	unsigned long args[ASYS_MAX_ARGS] = { 0, 1, 0, 0, 0, 0 };

	if (ring < 0)
		_exit(3);
	args[0] = ring;
	if (!through_asys) {
		if (syscall(SYS_io_uring_enter, ring, 1, 0, 0, NULL, 0) < 0)
			_exit(4);
	} else if (asys_submit1(SYS_io_uring_enter, 1, args, 4, &err) != 1) {
		_exit(5);
	}
	syscall(SYS_exit_group, 0);	/* at once: the call may not have run yet */
	_exit(6);
}

/* the kernel log from here on: /dev/kmsg, at its end */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* how many records since kmsg_open() speak of io_uring or a warning; prints them */
static int kmsg_complaints(int fd)
{
	char rec[1024];
	int n = 0;
	ssize_t len;

	while ((len = read(fd, rec, sizeof(rec) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		if (len <= 0)
			continue;	/* EPIPE: records lost to the ring's wrap; read on */
		rec[len] = 0;
		if (strstr(rec, "io_uring") || strstr(rec, "WARNING") || strstr(rec, "BUG")) {
			printf("# kernel: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
			n++;
		}
	}
	return n;
}

/* ROUNDS children that exit with the call made one way; how many exited 0 */
static int rounds(int through_asys)
{
	int clean = 0;

	for (int i = 0; i < ROUNDS; i++) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			child(through_asys);
		if (pid > 0 && asys_reap_within(pid, &status, 8000) &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			clean++;
		else if (pid > 0)
			printf("# child %d: %s, status 0x%x\n", i, through_asys ? "asys" : "sync",
			       status);
	}
	return clean;
}

int main(void)
{
	int kmsg, n;

	REQUIRE(asys_present(), "asys_submit is a system call of this kernel");
	REQUIRE(ring_setup() >= 0, "io_uring_setup works (errno %d): CONFIG_IO_URING", errno);
	asys_watchdog(60);
	kmsg = kmsg_open();
	REQUIRE(kmsg >= 0, "/dev/kmsg can be read (errno %d)", errno);

	asys_watchdog_step = "children that exit after a synchronous io_uring_enter";
	n = rounds(0);
	CHECK(n == ROUNDS, "the oracle: %d of %d children exit 0 after a synchronous "
	      "io_uring_enter", n, ROUNDS);
	usleep(300 * 1000);	/* the rings' exit work runs in a kworker */
	n = kmsg_complaints(kmsg);
	CHECK(n == 0, "the oracle: the kernel says nothing of io_uring (%d lines)", n);

	asys_watchdog_step = "children that exit with an io_uring_enter pending on asys";
	n = rounds(1);
	CHECK(n == ROUNDS, "%d of %d children exit 0 with an io_uring_enter pending on "
	      "asys", n, ROUNDS);
	usleep(300 * 1000);
	n = kmsg_complaints(kmsg);
	CHECK(n == 0, "with the call pending at exit, the kernel says nothing of io_uring "
	      "either (%d lines): the calls end before io_uring forgets the task", n);
	return labtest_done();
}
