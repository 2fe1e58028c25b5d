/*
 * Lab 5 test: the short form of `make bench`, so that the benchmarks cannot rot.
 *
 * It runs every benchmark of labs/lab5/bench/ (and Lab 2's switch_cost.c) with a few
 * hundred operations instead of thousands, on the graded (debug) Lab 5 kernel, without
 * -icount: each must run to the end and its own checks must hold (every read it hands
 * off really blocks, every completion carries its cookie, the self-test says ok).
 * The figures are printed, but they are TCG wall time on a lockdep/kmemleak kernel and
 * say nothing: `make bench` is where figures come from. No timing is checked.
 */
#define _GNU_SOURCE
#define BENCH_NO_MAIN
#include "../bench/icount_check.c"
#include "../bench/direct.c"
#include "../bench/asys_inline.c"
#include "../bench/asys_roundtrip.c"
#include "../bench/thread_per_call.c"
#include "../bench/worker_thread.c"
#include "../bench/iouring.c"
#include "../../lab2/bench/switch_cost.c"

/*
 * A figure is printed, never checked: without -icount a difference of two wall-clock
 * runs can even come out negative when the host stalls the small run (it did).
 */
static void figure(const char *name, double v)
{
	printf("RESULT %s=%.0f\n", name, v);
	printf("%s ran: %.0f per operation (TCG wall time, debug kernel: not a figure)\n", name, v);
}

int main(void)
{
	long small, large;
	double a, b;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("clock units per instruction (1.00 only under -icount shift=0): %.3f\n",
	       bench_icount_check(200000));
	bench_rt();
	REQUIRE(asys_present(), "this kernel has asys_submit");
	figure("direct_syscall", bench_direct_syscall(2000));
	figure("direct_pipe_rw", bench_direct_pipe(1000));
	figure("asys_inline", bench_asys_inline(1000));
	figure("asys_roundtrip", bench_asys_roundtrip(500));
	figure("asys_eventfd_roundtrip", bench_asys_roundtrip_on(500, BENCH_EVENTFD));
	figure("asys_socketpair_roundtrip", bench_asys_roundtrip_on(500, BENCH_SOCKET));
	figure("thread_per_call_roundtrip", bench_thread_per_call(100));
	figure("thread_per_call_socketpair_roundtrip", bench_thread_per_call_on(100, BENCH_SOCKET));
	figure("worker_thread_roundtrip", bench_worker_thread(200));
	figure("iouring_async_roundtrip", bench_iouring(200, IOSQE_ASYNC, BENCH_PIPE));
	figure("iouring_roundtrip", bench_iouring(200, 0, BENCH_PIPE));
	figure("iouring_eventfd_roundtrip", bench_iouring(200, 0, BENCH_EVENTFD));
	figure("iouring_socketpair_roundtrip", bench_iouring(200, 0, BENCH_SOCKET));
	a = fibril_run(100, &small);
	b = fibril_run(2100, &large);
	REQUIRE(large > small, "the fibril self-test switched (%ld, then %ld switches)", small, large);
	figure("fibril_switch", (b - a) / (large - small));
	figure("process_switch", (pingpong(600) - pingpong(100)) / (2.0 * 500));
	return labtest_done();
}
