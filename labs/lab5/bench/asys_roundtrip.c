/*
 * Lab 5, way 3a: a blocking round trip through asys. asys_submit() starts read() of one
 * byte on an empty pipe on a new fibril; the read blocks, the fibril switches back and
 * asys_submit() returns with the call pending. The program writes the byte (the wake-up
 * makes the fibril runnable), and asys_await_completion() runs it to its end and
 * collects the completion. Nothing else runs: the task never leaves the CPU.
 * asys_eventfd_roundtrip is the same round trip on an eventfd, the file io_uring's
 * control figure (iouring_eventfd_roundtrip) uses: the same work, done by both.
 * asys_socketpair_roundtrip reads one byte from an AF_UNIX stream socket instead, the
 * file every way measures again on a socket (bench.h: enum bench_file).
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <sys/syscall.h>
#include "asys_test.h"
#include "bench.h"

/* the round trip's file (bench.h: bench_file_open) */
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

/* The round trip on one kind of file (bench.h: BENCH_PIPE, BENCH_EVENTFD, BENCH_SOCKET). */
static double bench_asys_roundtrip_on(long n, enum bench_file kind)
{
	int rfd, wfd;

	if (!asys_present())
		bench_die("no asys on this kernel");
	asys_rt_len = bench_file_open(kind, &rfd, &wfd);
	asys_rt_rfd = rfd;
	asys_rt_wfd = wfd;
	return bench_per_op(asys_roundtrip_loop, n);
}

static inline double bench_asys_roundtrip(long n)
{
	return bench_asys_roundtrip_on(n, BENCH_PIPE);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 10000);

	bench_rt();
	bench_report("asys_roundtrip", bench_asys_roundtrip(n), n,
		     "asys_submit(read, blocks) + write + asys_await_completion");
	bench_report("asys_eventfd_roundtrip", bench_asys_roundtrip_on(n, BENCH_EVENTFD), n,
		     "the same on an eventfd: read 8 bytes (blocks), write a count of 1");
	bench_report("asys_socketpair_roundtrip", bench_asys_roundtrip_on(n, BENCH_SOCKET), n,
		     "the same on an AF_UNIX socketpair: read 1 byte (blocks), write 1 byte");
	return 0;
}
#endif
