/*
 * Lab 5, way 3a: a blocking round trip through asys. asys_submit() starts read() of one
 * byte on an empty pipe on a new fibril; the read blocks, the fibril switches back and
 * asys_submit() returns with the call pending. The program writes the byte (the wake-up
 * makes the fibril runnable), and asys_await_completion() runs it to its end and
 * collects the completion. Nothing else runs: the task never leaves the CPU.
 * asys_eventfd_roundtrip is the same round trip on an eventfd, the file io_uring's
 * control figure (iouring_eventfd_roundtrip) uses: the same work, done by both.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <sys/syscall.h>
#include "asys.h"
#include "bench.h"

static int asys_rt_pipe[2] = { -1, -1 };
static int asys_rt_eventfd = -1;
/* the round trip's file: the pipe (1 byte), or the eventfd (a count of 1, 8 bytes) */
static int asys_rt_rfd, asys_rt_wfd;
static unsigned long asys_rt_len;

static uint64_t asys_roundtrip_loop(long n)
{
	static unsigned long long buf;
	unsigned long long x = 1;
	unsigned long args[3];
	struct asys_completion c;
	uint64_t t0;
	long i;
	int err;

	args[0] = asys_rt_rfd;
	args[1] = (unsigned long)&buf;
	args[2] = asys_rt_len;
	t0 = bench_now();
	for (i = 0; i < n; i++) {
		/* nothing to read: the read blocks, asys_submit returns with it pending */
		if (asys_submit1(SYS_read, i, args, 3, &err) != 1)
			bench_die("asys_submit(read)");
		if (write(asys_rt_wfd, &x, asys_rt_len) != (long)asys_rt_len)
			bench_die("write");
		if (asys_await_completion(&c) != 1 || c.return_code != (long)asys_rt_len ||
		    c.cookie != (unsigned long)i)
			bench_die("asys_await_completion: %ld, cookie %lu", c.return_code, c.cookie);
	}
	return bench_now() - t0;
}

/* on_eventfd 0: a 1-byte read on a pipe; 1: an 8-byte read on an eventfd (iouring.c's control). */
static double bench_asys_roundtrip_on(long n, int on_eventfd)
{
	if (!asys_present())
		bench_die("no asys on this kernel");
	if (asys_rt_pipe[0] < 0 && pipe(asys_rt_pipe))
		bench_die("pipe");
	if (asys_rt_eventfd < 0) {
		asys_rt_eventfd = syscall(SYS_eventfd2, 0, 0);
		if (asys_rt_eventfd < 0)
			bench_die("eventfd");
	}
	asys_rt_rfd = on_eventfd ? asys_rt_eventfd : asys_rt_pipe[0];
	asys_rt_wfd = on_eventfd ? asys_rt_eventfd : asys_rt_pipe[1];
	asys_rt_len = on_eventfd ? 8 : 1;
	return bench_per_op(asys_roundtrip_loop, n);
}

static inline double bench_asys_roundtrip(long n)
{
	return bench_asys_roundtrip_on(n, 0);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 10000);

	bench_rt();
	bench_report("asys_roundtrip", bench_asys_roundtrip(n), n,
		     "asys_submit(read, blocks) + write + asys_await_completion");
	bench_report("asys_eventfd_roundtrip", bench_asys_roundtrip_on(n, 1), n,
		     "the same on an eventfd: read 8 bytes (blocks), write a count of 1");
	return 0;
}
#endif
