/*
 * Lab 5: why an io_uring read on a pipe costs so much, asked of io_uring's own
 * tracepoints. Runs the round trips of iouring.c (same ring, same code) a few times each
 * with the io_uring trace events on, and counts per round trip:
 *
 *   poll_arm        io_uring:io_uring_poll_arm: the read got -EAGAIN and armed a poll
 *   task_add        io_uring:io_uring_task_add: a wake-up of the armed poll queued task
 *                   work (the wake-up's stack is kept: a stacktrace trigger)
 *   async_work      io_uring:io_uring_queue_async_work: a read handed to io-wq
 *   complete        io_uring:io_uring_complete
 *
 * and prints the wake-up stacks of the first round trip of each way, so that one can
 * see who woke the poll. Needs a kernel with CONFIG_FTRACE (the lab kernels); the
 * benchmark kernel has tracing off on purpose.
 *
 *   gcc -m32 -static -O2 -Wall -Ilabs/include -o build/iouring_trace labs/lab5/bench/iouring_trace.c
 *   make run-guest LAB=5 PROG=build/iouring_trace
 */
#define BENCH_NO_MAIN
#include "iouring.c"
#include <fcntl.h>
#include <sys/mount.h>

#define TRACEFS "/sys/kernel/tracing"
#define ROUNDS 3

static void put(const char *file, const char *value)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		bench_die("tracefs: %s <- %s", path, value);
	close(fd);
}

static void trace_on(void)
{
	put("tracing_on", "0");
	put("trace", "");
	put("events/io_uring/enable", "1");
	put("events/io_uring/io_uring_task_add/trigger", "stacktrace");
	put("tracing_on", "1");
}

static void trace_off(void)
{
	put("tracing_on", "0");
	put("events/io_uring/io_uring_task_add/trigger", "!stacktrace");
	put("events/io_uring/enable", "0");
}

/* What one way cost, per round trip (counts[] in the order of keys[] below). */
static double per_trip[4];

/* Count the events of the trace; print the first round trip's lines (stacks included). */
static void report(const char *way, int rounds)
{
	static const char *const names[] = { "io_uring_poll_arm", "io_uring_task_add",
					     "io_uring_queue_async_work", "io_uring_complete" };
	static const char *const keys[] = { "poll_arm", "task_add", "async_work", "complete" };
	long count[4] = { 0 };
	char line[512];
	int shown = 0, completes = 0;
	FILE *f = fopen(TRACEFS "/trace", "r");

	if (!f)
		bench_die("open " TRACEFS "/trace");
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		for (int k = 0; k < 4; k++)
			if (strstr(line, names[k]))
				count[k]++;
		if (!completes && shown < 60) {
			printf("  %s", line);
			shown++;
		}
		if (strstr(line, "io_uring_complete"))
			completes++;
	}
	fclose(f);
	for (int k = 0; k < 4; k++) {
		per_trip[k] = (double)count[k] / rounds;
		printf("RESULT iouring_%s_%s_per_roundtrip=%.1f\n", way, keys[k], per_trip[k]);
	}
}

static void run(const char *way, unsigned char flags, int on_eventfd)
{
	printf("== %s: %d round trips\n", way, ROUNDS);
	bench_iouring(ROUNDS, flags, on_eventfd);	/* sets up; its 10 verified trips run first */
	trace_on();
	uring_loop(ROUNDS);
	trace_off();
	report(way, ROUNDS);
}

static void tracefs_ready(void)
{
	if (access(TRACEFS "/trace", F_OK) != 0)
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	if (access(TRACEFS "/events/io_uring/enable", F_OK) != 0)
		bench_die("no io_uring trace events in " TRACEFS " (a kernel without CONFIG_FTRACE?)");
}

#ifndef IOURING_TRACE_NO_MAIN
int main(void)
{
	tracefs_ready();
	run("pipe", 0, 0);
	run("pipe_async", IOSQE_ASYNC, 0);
	run("eventfd", 0, 1);
	return 0;
}
#endif
