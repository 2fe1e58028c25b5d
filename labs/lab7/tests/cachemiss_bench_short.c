/*
 * cachemiss_bench_short: the short form of make bench's cachemiss figures, so that
 * they cannot rot. It runs labs/lab7/bench/cachemiss.c with a few hundred operations on
 * this (debug) kernel, without -icount: each loop must run to the end and its own checks
 * must hold (every completion carries its cookie, every blocking read really moved the
 * user context). The figures are printed, never checked: make bench is where figures
 * come from.
 */
#define BENCH_CACHEMISS_NO_MAIN
#include "../bench/cachemiss.c"

static int ok;

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_rt();
	ok = asys_present() && cachemiss_on() == 0;
	REQUIRE(ok, "a kernel with asys in cachemiss mode (kernel.asys_cachemiss=1)");
	printf("asys_inline_cachemiss ran: %.0f per operation (TCG wall time: not a figure)\n",
	       bench_asys_inline_cachemiss(1000));
	printf("asys_roundtrip_cachemiss ran: %.0f per operation (TCG wall time: not a figure)\n",
	       bench_asys_roundtrip_cachemiss(500));
	printf("asys_eventfd_roundtrip_cachemiss ran: %.0f per operation (TCG wall time: not a figure)\n",
	       bench_asys_roundtrip_cachemiss_on(500, BENCH_EVENTFD));
	printf("asys_socketpair_roundtrip_cachemiss ran: %.0f per operation (TCG wall time: not a figure)\n",
	       bench_asys_roundtrip_cachemiss_on(500, BENCH_SOCKET));
	CHECK(1, "the four cachemiss benchmarks ran to the end with their own checks");
	return labtest_done();
}
