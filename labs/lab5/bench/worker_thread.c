/*
 * Lab 5, way 3c: a blocking round trip through a pre-started worker thread: the thread
 * pool answer to "creating a thread per call is too slow". The worker sleeps on a futex
 * until it is handed a request; the program hands it "read one byte from the pipe"
 * (store + FUTEX_WAKE), sched_yield()s so that the worker runs until its read blocks
 * (SCHED_FIFO, see bench.h), writes the byte, and sleeps on a second futex until the
 * worker has stored the result and woken it. A verification pass checks that the read
 * really blocked before anything is timed.
 */
#define _GNU_SOURCE	/* bench.h: CPU_SET; RUSAGE_THREAD */
#include <linux/futex.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "bench.h"

static int wt_pipe[2] = { -1, -1 };
static volatile int wt_request, wt_done, wt_verify;
static volatile long wt_result, wt_blocked;

static long wt_futex(volatile int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

static long wt_voluntary_switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

static void *wt_worker(void *arg)
{
	static char buf;

	(void)arg;
	for (;;) {
		long before;

		while (!__atomic_load_n(&wt_request, __ATOMIC_ACQUIRE))
			wt_futex(&wt_request, FUTEX_WAIT_PRIVATE, 0);
		__atomic_store_n(&wt_request, 0, __ATOMIC_RELAXED);
		before = wt_verify ? wt_voluntary_switches() : 0;
		wt_result = read(wt_pipe[0], &buf, 1);
		if (wt_verify && wt_voluntary_switches() > before)
			wt_blocked++;
		__atomic_store_n(&wt_done, 1, __ATOMIC_RELEASE);
		wt_futex(&wt_done, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static uint64_t wt_loop(long n)
{
	static pthread_t worker;
	uint64_t t0;
	char x = 'x';
	long i;

	if (wt_pipe[0] < 0) {
		if (pipe(wt_pipe))
			bench_die("pipe");
		if (pthread_create(&worker, NULL, wt_worker, NULL))
			bench_die("pthread_create");
	}
	t0 = bench_now();
	for (i = 0; i < n; i++) {
		__atomic_store_n(&wt_done, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&wt_request, 1, __ATOMIC_RELEASE);
		wt_futex(&wt_request, FUTEX_WAKE_PRIVATE, 1);
		sched_yield();	/* the worker runs until its read blocks */
		if (write(wt_pipe[1], &x, 1) != 1)
			bench_die("write");
		while (!__atomic_load_n(&wt_done, __ATOMIC_ACQUIRE))
			wt_futex(&wt_done, FUTEX_WAIT_PRIVATE, 0);
		if (wt_result != 1)
			bench_die("the worker's read returned %ld", wt_result);
	}
	return bench_now() - t0;
}

static double bench_worker_thread(long n)
{
	wt_verify = 1;
	wt_blocked = 0;
	wt_loop(10);
	wt_verify = 0;
	if (wt_blocked != 10)
		bench_die("the worker's read blocked in %ld of 10 calls, not all", wt_blocked);
	return bench_per_op(wt_loop, n);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 5000);

	bench_rt();
	bench_report("worker_thread_roundtrip", bench_worker_thread(n), n,
		     "futex hand-off + yield (read blocks) + write + futex wait");
	return 0;
}
#endif
