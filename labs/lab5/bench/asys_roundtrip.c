/*
 * Lab 5, way 3a: a blocking round trip through asys. asys_submit() starts read() of one
 * byte on an empty pipe on a new fibril; the read blocks, the fibril switches back and
 * asys_submit() returns with the call pending. The program writes the byte (the wake-up
 * makes the fibril runnable), and asys_await_completion() runs it to its end and
 * collects the completion. Nothing else runs: the task never leaves the CPU.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <sys/syscall.h>
#include "asys.h"
#include "bench.h"

static int asys_rt_pipe[2] = { -1, -1 };

static uint64_t asys_roundtrip_loop(long n)
{
	static char buf;
	unsigned long args[3];
	struct asys_completion c;
	uint64_t t0;
	char x = 'x';
	long i;
	int err;

	if (asys_rt_pipe[0] < 0 && pipe(asys_rt_pipe))
		bench_die("pipe");
	args[0] = asys_rt_pipe[0];
	args[1] = (unsigned long)&buf;
	args[2] = 1;
	t0 = bench_now();
	for (i = 0; i < n; i++) {
		/* the pipe is empty: the read blocks, asys_submit returns with it pending */
		if (asys_submit1(SYS_read, i, args, 3, &err) != 1)
			bench_die("asys_submit(read)");
		if (write(asys_rt_pipe[1], &x, 1) != 1)
			bench_die("write");
		if (asys_await_completion(&c) != 1 || c.return_code != 1 || c.cookie != (unsigned long)i)
			bench_die("asys_await_completion: %ld, cookie %lu", c.return_code, c.cookie);
	}
	return bench_now() - t0;
}

static double bench_asys_roundtrip(long n)
{
	if (!asys_present())
		bench_die("no asys on this kernel");
	return bench_per_op(asys_roundtrip_loop, n);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 10000);

	bench_rt();
	bench_report("asys_roundtrip", bench_asys_roundtrip(n), n,
		     "asys_submit(read, blocks) + write + asys_await_completion");
	return 0;
}
#endif
