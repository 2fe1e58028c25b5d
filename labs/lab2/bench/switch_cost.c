/*
 * Lab 2 benchmark: what does one fibril switch cost, against a process switch?
 *
 * Run it under QEMU's -icount shift=0, where the guest clock advances exactly 1 ns per
 * guest instruction, so every "ns" printed here is a deterministic instruction count:
 *
 *   QEMU_EXTRA="-icount shift=0" make run-guest LAB=2 SMP=1 PROG=build/bench/switch_cost
 *   (build: gcc -m32 -static -O2 -Ilabs/include -o build/bench/switch_cost \
 *            labs/lab2/bench/switch_cost.c)
 *
 * Lab 5's `make bench` runs it too, beside the other ways to do a call; an argument N
 * (default 50000) sets the number of process round trips, and 4N fibril switches.
 *
 * Fibril switch: the self-test with 2 fibrils + the main chain, run for a small and a
 * large number of switches; the difference over the difference in switches removes the
 * set-up and tear-down. Each switch includes the self-test's own checks after it.
 * Process switch: two processes ping-pong one byte over two pipes on one CPU; one round
 * trip is two switches, each with one write() and one read() system call around it.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <stdint.h>
#include <sys/wait.h>
#include "bench.h"
#include "fibril_selftest.h"

#define now_ns bench_now

static double fibril_run(long switches, long *done)
{
	char line[64];
	struct report rep;
	uint64_t t0;

	snprintf(line, sizeof(line), "fibrils=2 switches=%ld", switches);
	t0 = now_ns();
	if (selftest_run(line, &rep) < 0 || strcmp(rep.result, "ok")) {
		printf("self-test failed: %s\n", rep.result);
		exit(1);
	}
	*done = rep.switches;
	return (double)(now_ns() - t0);
}

static double pingpong(long round_trips)
{
	int a[2], b[2];
	char c = 'x';
	uint64_t t0;
	long i;
	pid_t pid;

	if (pipe(a) || pipe(b))
		exit(1);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < round_trips; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	t0 = now_ns();
	for (i = 0; i < round_trips; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			exit(1);
	t0 = now_ns() - t0;
	waitpid(pid, NULL, 0);
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
	return (double)t0;
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 50000), small, large;
	double t_small = fibril_run(1000, &small), t_large = fibril_run(1000 + 4 * n, &large);
	double fibril = (t_large - t_small) / (large - small);
	double pp_small = pingpong(1000), pp_large = pingpong(1000 + n);
	double process = (pp_large - pp_small) / (2.0 * n);
	uint64_t t0;
	int i;

	t0 = now_ns();
	for (i = 0; i < 100000; i++)
		getppid();
	printf("getppid() system call:         %8.0f ns/call\n", (now_ns() - t0) / 100000.0);
	printf("fibril switch (self-test):     %8.0f ns/switch (%ld switches)\n", fibril, large - small);
	printf("process switch (pipe ping-pong): %6.0f ns/switch, incl. one write + one read\n", process);
	printf("ratio fibril/process:          %8.3f\n", fibril / process);
	printf("RESULT fibril_switch=%.0f\nRESULT process_switch=%.0f\n", fibril, process);
	return 0;
}
#endif
