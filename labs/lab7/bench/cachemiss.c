/*
 * Lab 7: Lab 5's two asys benchmarks again, in cachemiss mode (kernel.asys_cachemiss=1),
 * on the same kernel and with the same loops, so that the two designs are measured side
 * by side:
 *   asys_inline_cachemiss     getpid() runs on the submitter's own stack: no fibril,
 *                             no switch; submit + await
 *   asys_roundtrip_cachemiss  read() of an empty pipe blocks on the submitter's stack,
 *                             the user context moves to a spare and returns; write; await
 *   asys_eventfd_roundtrip_cachemiss  the same on an eventfd (io_uring's working path)
 *   asys_socketpair_roundtrip_cachemiss  the same on an AF_UNIX stream socket
 * The mode the kernel had is restored at the end.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#define BENCH_NO_MAIN
#include "../../lab5/bench/asys_inline.c"
#include "../../lab5/bench/asys_roundtrip.c"
#undef BENCH_NO_MAIN
#include "cachemiss.h"

/* The cachemiss figures, each measured by the Lab 5 loop it names. */
static double bench_asys_inline_cachemiss(long n)
{
	return bench_asys_inline(n);
}

static double bench_asys_roundtrip_cachemiss_on(long n, enum bench_file kind)
{
	long m0 = cachemiss_moves();
	double v = bench_asys_roundtrip_on(n, kind);

	/* the loop is the fibril mode's: it proves nothing unless each read really moved */
	if (cachemiss_moves() - m0 < n)
		bench_die("asys_roundtrip_cachemiss: %ld moves for at least %ld blocking reads",
			  cachemiss_moves() - m0, n);
	return v;
}

static double bench_asys_roundtrip_cachemiss(long n)
{
	return bench_asys_roundtrip_cachemiss_on(n, BENCH_PIPE);
}

#ifndef BENCH_CACHEMISS_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 10000);

	bench_rt();
	if (cachemiss_on())
		bench_die("this kernel has no kernel.asys_cachemiss (Lab 7's patch)");
	bench_report("asys_inline_cachemiss", bench_asys_inline_cachemiss(2 * n), 2 * n,
		     "asys_submit(getpid), run on the submitter's stack + asys_await_completion");
	bench_report("asys_roundtrip_cachemiss", bench_asys_roundtrip_cachemiss(n), n,
		     "asys_submit(read, blocks: the user context moves) + write + asys_await_completion");
	bench_report("asys_eventfd_roundtrip_cachemiss", bench_asys_roundtrip_cachemiss_on(n, BENCH_EVENTFD), n,
		     "the same on an eventfd: read 8 bytes (blocks), write a count of 1");
	bench_report("asys_socketpair_roundtrip_cachemiss", bench_asys_roundtrip_cachemiss_on(n, BENCH_SOCKET), n,
		     "the same on an AF_UNIX socketpair: read 1 byte (blocks), write 1 byte");
	return 0;
}
#endif
