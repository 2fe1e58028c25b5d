/*
 * Lab 5: is the guest clock an instruction counter? (the method's one assumption)
 *
 * A user-space loop of exactly 2 instructions per turn ("dec; jnz") runs k and 2k
 * turns; the difference of the two clock differences is the time of exactly 2k
 * instructions. Under -icount shift=0 this prints a figure of 1.00 ns per instruction
 * (a little above: the timer interrupts of those 2k instructions are counted too, about
 * one every 1,000,000 instructions at HZ=1000). Without -icount it prints how fast TCG
 * (or KVM) runs this loop: wall time, which changes with the host's load.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include "bench.h"

static uint64_t spin(long turns)
{
	uint64_t t0 = bench_now();
	long k = turns;

	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(k) : : "cc");
	return bench_now() - t0;
}

/* Clock units (ns) per guest instruction: 1 under -icount shift=0. */
static double bench_icount_check(long turns)
{
	uint64_t a, b;

	spin(turns);
	a = spin(turns);
	b = spin(2 * turns);
	return (double)(int64_t)(b - a) / (2.0 * turns);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long turns = bench_iters(argc, argv, 5000000);
	double r = bench_icount_check(turns);

	printf("%-28s %10.4f ns per instruction (%ld instructions)\n", "icount_check", r, 2 * turns);
	printf("RESULT ns_per_insn_x1000=%.0f\n", r * 1000);
	return 0;
}
#endif
