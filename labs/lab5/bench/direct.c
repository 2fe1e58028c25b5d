/*
 * Lab 5, way 1: the direct synchronous system call, the floor every other way is
 * measured against. getpid() (syscall(2), so that no C library caches it) is a system
 * call that does nothing: entry, dispatch, exit. A 1-byte write() then read() on a pipe
 * is the work the round-trip benchmarks do, done directly, without anything blocking.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <sys/syscall.h>
#include "bench.h"

static uint64_t getpid_loop(long n)
{
	uint64_t t0 = bench_now();
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getpid);
	return bench_now() - t0;
}

static int direct_pipe[2] = { -1, -1 };

static uint64_t pipe_loop(long n)
{
	uint64_t t0;
	char c = 'x';
	long i;

	if (direct_pipe[0] < 0 && pipe(direct_pipe))
		bench_die("pipe");
	t0 = bench_now();
	for (i = 0; i < n; i++)
		if (write(direct_pipe[1], &c, 1) != 1 || read(direct_pipe[0], &c, 1) != 1)
			bench_die("pipe write/read");
	return bench_now() - t0;
}

static double bench_direct_syscall(long n)
{
	return bench_per_op(getpid_loop, n);
}

static double bench_direct_pipe(long n)
{
	return bench_per_op(pipe_loop, n);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 20000);

	bench_rt();
	bench_report("direct_syscall", bench_direct_syscall(n), n, "getpid()");
	bench_report("direct_pipe_rw", bench_direct_pipe(n), n, "write(1 byte) + read(1 byte), nothing blocks");
	return 0;
}
#endif
