/*
 * Lab 5, way 3b: a blocking round trip through a thread per call, the model Ingo said
 * Linux is fast enough for. pthread_create() starts a thread whose only job is read() of
 * one byte on an empty pipe; sched_yield() lets it run until the read blocks (SCHED_FIFO,
 * bench_rt(): the new thread waits behind the submitter until it yields); the program
 * writes the byte and pthread_join() collects the result when the thread has ended.
 * A verification pass checks that the read really blocked (the thread's voluntary
 * context switches grow across it) before anything is timed.
 * thread_per_call_socketpair_roundtrip does the same on an AF_UNIX stream socket.
 */
#define _GNU_SOURCE	/* bench.h: CPU_SET; RUSAGE_THREAD */
#include <pthread.h>
#include <sys/resource.h>
#include "bench.h"

static int tpc_rfd = -1, tpc_wfd = -1;	/* the round trip's file (bench.h) */
static int tpc_verify;
static long tpc_blocked;

static long voluntary_switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

static void *tpc_call(void *arg)
{
	static char buf;
	long before = tpc_verify ? voluntary_switches() : 0;
	ssize_t r = read(tpc_rfd, &buf, 1);

	(void)arg;
	if (tpc_verify && voluntary_switches() > before)
		tpc_blocked++;
	return (void *)(long)r;
}

static uint64_t tpc_loop(long n)
{
	pthread_t t;
	void *ret;
	uint64_t t0;
	char x = 'x';
	long i;

	t0 = bench_now();
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, NULL, tpc_call, NULL))
			bench_die("pthread_create");
		sched_yield();	/* the thread runs until its read blocks */
		if (write(tpc_wfd, &x, 1) != 1)
			bench_die("write");
		if (pthread_join(t, &ret) || (long)ret != 1)
			bench_die("pthread_join: the read returned %ld", (long)ret);
	}
	return bench_now() - t0;
}

/* The round trip on a pipe or a socket (bench.h: BENCH_PIPE, BENCH_SOCKET: 1 byte). */
static double bench_thread_per_call_on(long n, enum bench_file kind)
{
	if (bench_file_open(kind, &tpc_rfd, &tpc_wfd) != 1)
		bench_die("thread_per_call reads 1 byte: a pipe or a socket");
	tpc_verify = 1;
	tpc_blocked = 0;
	tpc_loop(10);
	tpc_verify = 0;
	if (tpc_blocked != 10)
		bench_die("the thread's read blocked in %ld of 10 calls, not all", tpc_blocked);
	return bench_per_op(tpc_loop, n);
}

static inline double bench_thread_per_call(long n)
{
	return bench_thread_per_call_on(n, BENCH_PIPE);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 2000);

	bench_rt();
	bench_report("thread_per_call_roundtrip", bench_thread_per_call(n), n,
		     "pthread_create + yield (read blocks) + write + pthread_join");
	bench_report("thread_per_call_socketpair_roundtrip", bench_thread_per_call_on(n, BENCH_SOCKET), n,
		     "the same on an AF_UNIX socketpair");
	return 0;
}
#endif
