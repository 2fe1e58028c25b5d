/*
 * bench.h: timing for the Lab 5 benchmarks (labs/lab5/bench/), in the guest.
 *
 * Under QEMU's -icount shift=0 the guest's clock advances exactly 1 ns per guest
 * instruction executed (user, kernel and interrupt handlers alike), so the difference of
 * two CLOCK_MONOTONIC readings is the number of instructions the guest ran in between:
 * deterministic, and independent of how busy the host is. Without -icount (TCG or KVM)
 * the same difference is time, and only indicative. labs/lab5/bench/icount_check.c
 * checks the claim in the guest.
 *
 * A benchmark is a function "run n operations, return the clock difference across
 * them". bench_per_op() runs it for n/10 and for n operations and divides the difference
 * of the two by the difference of the counts: what is paid once per run (set-up, the
 * clock reads, the first page faults) cancels out.
 *
 * bench_rt(): every round-trip benchmark runs as SCHED_FIFO priority 1 on CPU 0 (make
 * bench boots one CPU; make check's short form also boots two), with RT throttling off. Threads it makes inherit the policy, so a thread (or io-wq worker)
 * that is woken waits until the submitter blocks or calls sched_yield(): the benchmark
 * decides exactly when the call it handed off starts, and can make it block before the
 * data it waits for is written. Under SCHED_OTHER that order depends on CFS's vruntime
 * book-keeping (a new thread starts a slice behind, and sched_yield() may keep the caller
 * running).
 */
#ifndef LAB_BENCH_H
#define LAB_BENCH_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before the first #include: bench.h needs CPU_SET and sched_setaffinity()"
#endif

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* bench_now(): CLOCK_MONOTONIC in ns; under -icount shift=0, guest instructions. */
static inline uint64_t bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* bench_die(): a benchmark whose operation failed has no figure: say why, exit 1. */
#define bench_die(...)                                                         \
	do {                                                                   \
		printf("bench error: " __VA_ARGS__);                           \
		printf(" (errno %d: %s)\n", errno, strerror(errno));           \
		fflush(stdout);                                                \
		exit(1);                                                       \
	} while (0)

typedef uint64_t (*bench_fn)(long n);

/*
 * bench_per_op(fn, n): the cost of one operation, by difference of a run of n/10 and a
 * run of n operations, after one warm-up run of n/10.
 */
static inline double bench_per_op(bench_fn fn, long n)
{
	long small = n / 10 > 0 ? n / 10 : 1;
	uint64_t t_small, t_large;

	if (n <= small)
		n = small + 1;
	fn(small);		/* warm-up: page faults, first allocations, io-wq worker */
	t_small = fn(small);
	t_large = fn(n);
	return (double)(int64_t)(t_large - t_small) / (double)(n - small);
}

/* bench_report(name, value, n, what): one table line and the RESULT line. */
static inline void bench_report(const char *name, double per_op, long n, const char *what)
{
	printf("%-28s %10.0f per op  (%ld ops)  %s\n", name, per_op, n, what);
	printf("RESULT %s=%.0f\n", name, per_op);
	fflush(stdout);
}

/*
 * bench_iters(argc, argv, n): the number of operations, n unless argv[1] gives another
 * (make check's short form runs each benchmark with a small count).
 */
static inline long bench_iters(int argc, char **argv, long n)
{
	if (argc > 1 && atol(argv[1]) > 0)
		return atol(argv[1]);
	return n;
}

/*
 * The file a blocking round trip reads, the same for every way that does the round trip:
 *   BENCH_PIPE     a pipe, 1 byte: the Lab 5 figures
 *   BENCH_EVENTFD  an eventfd, 8 bytes (a count of 1): io_uring's working path in 6.1
 *   BENCH_SOCKET   an AF_UNIX stream socketpair, 1 byte: what a server waits on; an
 *                  AF_UNIX socket, unlike a 6.1 pipe, has FMODE_NOWAIT, so io_uring
 *                  arms a poll and reads from task work, as for the eventfd
 * bench_file_open(kind, &rfd, &wfd): the file's two ends (made once per kind and kept);
 * it returns how many bytes one round trip reads and writes.
 */
enum bench_file { BENCH_PIPE, BENCH_EVENTFD, BENCH_SOCKET };

static inline int bench_file_open(enum bench_file kind, int *rfd, int *wfd)
{
	static int ends[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int *e = ends[kind];

	if (e[0] < 0) {
		switch (kind) {
		case BENCH_PIPE:
			if (pipe(e))
				bench_die("pipe");
			break;
		case BENCH_EVENTFD:
			e[0] = e[1] = syscall(SYS_eventfd2, 0, 0);
			if (e[0] < 0)
				bench_die("eventfd");
			break;
		case BENCH_SOCKET:
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, e))
				bench_die("socketpair(AF_UNIX) (a kernel without CONFIG_UNIX?)");
			break;
		}
	}
	*rfd = e[0];
	*wfd = e[1];
	return kind == BENCH_EVENTFD ? 8 : 1;
}

/* bench_rt(): SCHED_FIFO 1 on CPU 0 for this process and the threads it makes (see the top). */
static inline void bench_rt(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	FILE *f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "w");
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		bench_die("sched_setaffinity(CPU 0)");
	/* RT throttling would idle the CPU 50 ms a second: no throttling. */
	if (f) {
		fputs("-1\n", f);
		fclose(f);
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		bench_die("sched_setscheduler(SCHED_FIFO)");
}

#endif
