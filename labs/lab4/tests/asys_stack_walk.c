/*
 * asys_stack_walk: a stack another task is walking outlives the walk, even when it is a
 * fibril's stack whose call ends meanwhile.
 *
 * /proc/PID/stack, /proc/PID/wchan, /proc/PID/syscall and sysrq-t read the kernel stack
 * that task->stack points at. For a task with fibrils that is whichever chain ran last:
 * a fibril's stack when a call's fibril was the last to sleep. try_get_task_stack() pins
 * only the task's own stack, so the call can end, and its stack be freed, while the
 * walk goes on: the walk then reads freed memory. The kernel frees a fibril stack through
 * call_rcu() and walkers hold rcu_read_lock() (get_task_stack_for_walk(), patch 2).
 *
 * A real walk lasts microseconds; the kernel's /sys/kernel/debug/fibrils/slow_stack_walk
 * pins a stack as the real walkers do and then watches it for the time asked ("PID MS"),
 * counting walks over a fibril's stack and walks whose stack was freed before the end.
 *
 * A child P fills a pipe, submits a 64 KiB write to it (the call blocks on its fibril F)
 * and blocks itself in read() on a second pipe. The test reads 4 KiB from the first pipe:
 * F wakes, writes 4 KiB and sleeps again, the last of P's chains to sleep, so P's
 * task->stack is F's stack (/proc/P/stack shows pipe_write). The test starts a 2 s walk
 * of P's stack; meanwhile a drainer empties the pipe, F's write completes, F ends, and
 * the drainer wakes P, whose main chain frees F's stack. The stack must not be freed
 * before the walk ends, and P must collect its 64 KiB write.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys.h"

#define WALK_FILE "/sys/kernel/debug/fibrils/slow_stack_walk"
#define WALK_MS 2000
#define CALL_BYTES 65536
#define TAKEN_BYTES 4096

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */
static int data[2], wake[2];
static long pipe_bytes;	/* what fills the data pipe */
static char buf[CALL_BYTES];

struct walks {
	long walks, fibril_stacks, freed;
};

static int read_walks(struct walks *w)
{
	static const char *const keys[] = { "walks", "fibril_stacks", "freed_under_walk" };
	long v[3];
	int ret = read_counters(WALK_FILE, keys, v, 3);

	w->walks = v[0], w->fibril_stacks = v[1], w->freed = v[2];
	return ret;
}

/* P: fill the pipe, submit a write that blocks on its fibril, block the main chain. */
static void writer_main(int mode, int ready)
{
	struct asys_completion c;
	struct asys_input req;
	unsigned long args[3];
	char byte;

	(void)mode;
	asys_watchdog(30);
	fcntl(data[1], F_SETFL, O_NONBLOCK);
	while (write(data[1], buf, TAKEN_BYTES) == TAKEN_BYTES)
		;
	fcntl(data[1], F_SETFL, 0);
	args[0] = data[1];
	args[1] = (unsigned long)buf;
	args[2] = CALL_BYTES;
	asys_req(&req, SYS_write, 7, args, 3);
	if (asys_submit(&req, 1) != 1 || write(ready, "y", 1) != 1)
		_exit(3);
	/* the main chain sleeps first; F is woken (and sleeps again) after it */
	if (read(wake[0], &byte, 1) != 1)
		_exit(4);
	if (asys_await_completion(&c) != 1)
		_exit(5);
	if (c.cookie != 7 || c.return_code != CALL_BYTES) {
		printf("P: the write completed with %ld (cookie %lu), expected %d\n",
		       (long)c.return_code, (unsigned long)c.cookie, CALL_BYTES);
		_exit(6);
	}
	_exit(0);
}

/* The drainer: once the walk has begun, empty the pipe, then wake P's main chain. */
static void drainer_main(void)
{
	long left = pipe_bytes + CALL_BYTES - TAKEN_BYTES;
	ssize_t n;

	usleep(300 * 1000);
	while (left > 0 && (n = read(data[0], buf, sizeof(buf))) > 0)
		left -= n;
	_exit(left == 0 && write(wake[1], "w", 1) == 1 ? 0 : 1);
}

/* Does /proc/PID/stack show the function named? (the real walker, over F's stack) */
static int stack_shows(pid_t pid, const char *fn)
{
	char path[64], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		printf("  /proc/P/stack: %s", line);
		found |= strstr(line, fn) != NULL;
	}
	fclose(f);
	return found;
}

int main(void)
{
	struct walks before, after;
	int status, fd, reaped;
	pid_t writer, drainer;
	char cmd[64];
	ssize_t n;

	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = read_walks(&before) == 0;
	REQUIRE(ok, "%s is there (patch 4)", WALK_FILE);
	REQUIRE(pipe(data) == 0 && pipe(wake) == 0, "pipes");
	pipe_bytes = fcntl(data[1], F_GETPIPE_SZ);
	REQUIRE(pipe_bytes > 0, "the pipe holds %ld bytes", pipe_bytes);

	asys_watchdog_step = "P submits its write";
	ok = asys_fork_ready(writer_main, 0, &writer);
	REQUIRE(ok, "P filled the pipe and submitted a %d-byte write to it", CALL_BYTES);
	usleep(100 * 1000);	/* P's main chain asleep in read() */
	asys_watchdog_step = "take 4 KiB from the pipe";
	n = read(data[0], buf, TAKEN_BYTES);
	REQUIRE(n == TAKEN_BYTES, "took %zd bytes: P's call woke, wrote them back and sleeps again", n);
	usleep(100 * 1000);
	CHECK(stack_shows(writer, "pipe_write"),
	      "/proc/P/stack walks the call's fibril stack: it shows pipe_write");

	asys_watchdog_step = "the drainer";
	fflush(stdout);
	drainer = fork();
	if (drainer == 0)
		drainer_main();
	REQUIRE(drainer > 0, "fork() the drainer");

	asys_watchdog_step = "the slow walk";
	fd = open(WALK_FILE, O_WRONLY);
	REQUIRE(fd >= 0, "open %s", WALK_FILE);
	snprintf(cmd, sizeof(cmd), "%d %d", writer, WALK_MS);
	n = write(fd, cmd, strlen(cmd));
	CHECK(n == (ssize_t)strlen(cmd), "a %d ms walk of P's stack (write returned %zd, %s)",
	      WALK_MS, n, n < 0 ? strerror(errno) : "ok");
	close(fd);

	asys_watchdog_step = "reap the drainer and P";
	reaped = asys_reap_within(drainer, &status, 10000);
	CHECK(reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the drainer emptied the pipe and woke P (status 0x%x)", status);
	reaped = asys_reap_within(writer, &status, 10000);
	CHECK(reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "P collected its %d-byte write and exited 0 (status 0x%x)", CALL_BYTES, status);

	ok = read_walks(&after) == 0;
	REQUIRE(ok, "read %s", WALK_FILE);
	CHECK(after.walks == before.walks + 1 && after.fibril_stacks == before.fibril_stacks + 1,
	      "the walk was over a fibril's stack (walks +%ld, over fibril stacks +%ld)",
	      after.walks - before.walks, after.fibril_stacks - before.fibril_stacks);
	CHECK(after.freed == before.freed,
	      "the stack was not freed under the walk, although its call ended meanwhile "
	      "(freed_under_walk +%ld)", after.freed - before.freed);
	return labtest_done();
}
