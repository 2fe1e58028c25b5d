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
 * and blocks itself in read() on a second pipe (/proc/P/wchan: pipe_read). The test reads
 * 4 KiB from the first pipe: F wakes, writes 4 KiB and sleeps again, the last of P's
 * chains to sleep, so P's task->stack is F's stack (/proc/P/wchan and /proc/P/stack show
 * pipe_write). A child W walks P's stack for 5 s; meanwhile a drainer empties the pipe,
 * F's write completes, F ends, and the drainer wakes P, whose main chain frees F's stack
 * and exits. The stack must not be freed before the walk ends, and P must collect its
 * 64 KiB write.
 *
 * The order is waited for, not slept for: W says when it is about to write the walk,
 * and the drainer then waits until W has burnt 50 ms of system time, which only the
 * walk's busy loop does, so the walk has pinned F's stack. W looks at P when the walk
 * ends: P not yet a zombie means the drain came too late (a starved guest) and the free
 * after the walk; the round is then done again, up to 5 times.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"
#include "procwait.h"

#define WALK_FILE "/sys/kernel/debug/fibrils/slow_stack_walk"
#define WALK_MS 5000		/* the most the file allows: room for a drain on a loaded host */
#define WALK_TICKS 5		/* W's system time (10 ms ticks) that shows the walk began */
#define ROUNDS 5
#define CALL_BYTES 65536
#define TAKEN_BYTES 4096

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */
static int data[2], wake[2], go[2];
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

/* /proc/PID/stat: the state letter (0 when the task is gone) and stime in clock ticks */
static char proc_stat(pid_t pid, unsigned long *stime)
{
	char path[64], line[512], *p;
	char state = 0;
	FILE *f;

	*stime = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	/* after "PID (comm)": state, 10 fields, utime, stime */
	if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')) &&
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %lu",
		   &state, stime) != 2)
		state = 0;
	fclose(f);
	return state;
}

/* P: fill the pipe, submit a write that blocks on its fibril, block the main chain. */
static void writer_main(int mode, int ready)
{
	struct asys_completion c;
	struct asys_input req;
	unsigned long args[3];
	char byte;

	(void)mode;
	asys_watchdog(60);
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

/*
 * W: walk P's stack for WALK_MS. Exit 0 when P was a zombie by the end of the walk (F's
 * stack was freed under it), 1 when not (the round is redone), 2 when the walk failed.
 */
static void walker_main(pid_t writer)
{
	int fd = open(WALK_FILE, O_WRONLY);
	unsigned long stime;
	char cmd[64];
	ssize_t n;

	snprintf(cmd, sizeof(cmd), "%d %d", writer, WALK_MS);
	if (fd < 0 || write(go[1], "g", 1) != 1)
		_exit(2);
	n = write(fd, cmd, strlen(cmd));
	if (n != (ssize_t)strlen(cmd)) {
		printf("W: the walk's write returned %zd (%s), expected %zu\n", n,
		       n < 0 ? strerror(errno) : "short", strlen(cmd));
		fflush(stdout);
		_exit(2);
	}
	_exit(proc_stat(writer, &stime) == 'Z' ? 0 : 1);
}

/*
 * The drainer: once W's walk has pinned P's stack, empty the pipe, then wake P's main
 * chain. After W's "go" only the walk's busy loop burns W's system time. If W ended
 * first (a starved guest), drain all the same, so that P ends: W then reports a miss.
 */
static void drainer_main(pid_t walker)
{
	long left = pipe_bytes + CALL_BYTES - TAKEN_BYTES;
	unsigned long s0, s;
	char state, c;
	ssize_t n;

	if (read(go[0], &c, 1) != 1)
		_exit(2);
	proc_stat(walker, &s0);
	while ((state = proc_stat(walker, &s)) && state != 'Z' && s < s0 + WALK_TICKS)
		usleep(1000);
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

/* One round: P, its call asleep on F's stack, a walk over it and the drain. 1: in time. */
static int walk_round(int round)
{
	struct walks before, after;
	pid_t writer, walker, drainer;
	int status, reaped, in_time, late;
	ssize_t n;

	asys_watchdog(60);
	ok = read_walks(&before) == 0;
	REQUIRE(ok, "%s is there (patch 4)", WALK_FILE);
	REQUIRE(pipe(data) == 0 && pipe(wake) == 0 && pipe(go) == 0, "pipes");
	pipe_bytes = fcntl(data[1], F_GETPIPE_SZ);
	REQUIRE(pipe_bytes > 0, "the pipe holds %ld bytes", pipe_bytes);

	asys_watchdog_step = "P submits its write";
	ok = asys_fork_ready(writer_main, 0, &writer);
	REQUIRE(ok, "P filled the pipe and submitted a %d-byte write to it", CALL_BYTES);
	asys_watchdog_step = "P's main chain asleep in read() (/proc/P/wchan pipe_read)";
	ok = proc_wait_wchan(writer, "pipe_read");
	REQUIRE(ok, "P's main chain sleeps in read(): /proc/P/wchan shows pipe_read");
	asys_watchdog_step = "take 4 KiB from the pipe";
	n = read(data[0], buf, TAKEN_BYTES);
	REQUIRE(n == TAKEN_BYTES, "took %zd bytes from the pipe", n);
	asys_watchdog_step = "P's call asleep again (/proc/P/wchan pipe_write)";
	ok = proc_wait_wchan(writer, "pipe_write");
	REQUIRE(ok, "P's call woke, wrote them back and sleeps again: /proc/P/wchan shows pipe_write");
	CHECK(stack_shows(writer, "pipe_write"),
	      "/proc/P/stack walks the call's fibril stack: it shows pipe_write");

	asys_watchdog_step = "the slow walk";
	fflush(stdout);
	walker = fork();
	if (walker == 0)
		walker_main(writer);
	REQUIRE(walker > 0, "fork() W");
	drainer = fork();
	if (drainer == 0)
		drainer_main(walker);
	REQUIRE(drainer > 0, "fork() the drainer");
	REQUIRE(waitpid(walker, &status, 0) == walker, "waitpid() W");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) <= 1,
	      "a %d ms walk of P's stack (W: expected exit 0 or 1, got status 0x%x)", WALK_MS, status);
	in_time = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	late = WIFEXITED(status) && WEXITSTATUS(status) == 1;

	asys_watchdog_step = "reap the drainer and P";
	reaped = asys_reap_within(drainer, &status, 30000);
	CHECK(reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the drainer emptied the pipe and woke P (status 0x%x)", status);
	if (!reaped)
		kill(drainer, SIGKILL);
	reaped = asys_reap_within(writer, &status, 30000);
	CHECK(reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "P collected its %d-byte write and exited 0 (status 0x%x)", CALL_BYTES, status);
	if (!reaped)
		kill(writer, SIGKILL);

	ok = read_walks(&after) == 0;
	REQUIRE(ok, "read %s", WALK_FILE);
	CHECK(after.walks == before.walks + 1 && after.fibril_stacks == before.fibril_stacks + 1,
	      "the walk was over a fibril's stack (walks +%ld, over fibril stacks +%ld)",
	      after.walks - before.walks, after.fibril_stacks - before.fibril_stacks);
	CHECK(after.freed == before.freed,
	      "the stack was not freed under the walk%s (freed_under_walk +%ld)",
	      in_time ? ", although its call ended meanwhile" : "",
	      after.freed - before.freed);
	if (late)
		printf("round %d: P had not exited when the walk ended (a slow drain): again\n",
		       round);
	close(data[0]), close(data[1]), close(wake[0]), close(wake[1]);
	close(go[0]), close(go[1]);
	return in_time;
}

int main(void)
{
	int round, hit = 0;

	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	for (round = 1; round <= ROUNDS && !hit; round++)
		if (walk_round(round))
			hit = round;
	CHECK(hit, "P's call ended and P exited during a walk, so F's stack was freed under it: "
	      "expected in one of %d rounds, got it in %s %d", ROUNDS, hit ? "round" : "none of",
	      hit ? hit : ROUNDS);
	return labtest_done();
}
