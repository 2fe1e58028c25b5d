/*
 * Lab 5, way 2: asys, when the call does not block. asys_submit() runs getpid() on a
 * new fibril at once, to its end; asys_await_completion() collects its completion. What
 * this costs above direct_syscall is the asys machinery alone: a second system call,
 * copying the request in and the completion out, a fibril (struct + stack) made and
 * freed, and two fibril switches.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <sys/syscall.h>
#include "asys_test.h"
#include "bench.h"

static uint64_t asys_inline_loop(long n)
{
	struct asys_completion c;
	uint64_t t0 = bench_now();
	pid_t me = getpid();
	long i;
	int err;

	for (i = 0; i < n; i++) {
		if (asys_submit1(SYS_getpid, i, NULL, 0, &err) != 1)
			bench_die("asys_submit(getpid)");
		if (asys_await_completion(&c) != 1 || c.return_code != me || c.cookie != (unsigned long)i)
			bench_die("asys_await_completion: %ld, cookie %lu", c.return_code, c.cookie);
	}
	return bench_now() - t0;
}

static double bench_asys_inline(long n)
{
	if (!asys_present())
		bench_die("no asys on this kernel");
	return bench_per_op(asys_inline_loop, n);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 20000);

	bench_rt();
	bench_report("asys_inline", bench_asys_inline(n), n, "asys_submit(getpid) + asys_await_completion");
	return 0;
}
#endif
