/*
 * iouring_paths: the path each io_uring figure of make bench takes, as docs/lab5.md
 * states it, read from io_uring's own tracepoints (labs/lab5/bench/iouring_trace.c).
 *
 * On 6.1 a pipe has no FMODE_NOWAIT: after the armed poll fires, the read is handed to
 * an io-wq worker thread, every round trip. An eventfd has FMODE_NOWAIT: the task work
 * the poll's wake-up queues completes the read, and no worker is involved. If a kernel
 * change (or a change of the benchmark) moved either figure to another path, the table
 * of docs/lab5.md would describe the wrong thing: this test says so.
 */
#define IOURING_TRACE_NO_MAIN
#include "../bench/iouring_trace.c"
#include "labtest.h"

int main(void)
{
	tracefs_ready();

	run("pipe", 0, 0);
	CHECK(per_trip[0] >= 1.0 && per_trip[2] >= 1.0,
	      "pipe: the read armed a poll (%.1f a round trip) and was handed to io-wq "
	      "(%.1f a round trip), expected at least 1 each", per_trip[0], per_trip[2]);
	CHECK(per_trip[3] == 1.0, "pipe: one completion a round trip (got %.1f)", per_trip[3]);

	run("eventfd", 0, 1);
	CHECK(per_trip[0] >= 1.0 && per_trip[2] == 0.0,
	      "eventfd: the read armed a poll (%.1f a round trip) and never went to io-wq "
	      "(%.1f a round trip), expected 0", per_trip[0], per_trip[2]);
	CHECK(per_trip[3] == 1.0, "eventfd: one completion a round trip (got %.1f)", per_trip[3]);
	return labtest_done();
}
