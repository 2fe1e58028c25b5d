/*
 * fibril_stacks.h: the counters of Lab 5's fibril stack cache,
 * /sys/kernel/debug/fibrils/stacks ("allocated N", "reused N", "freed N", "cached N"),
 * pinning the test to one CPU (each CPU has a cache of its own), and the blocking round
 * trips that free stacks into the caches.
 */
#ifndef FIBRIL_STACKS_H
#define FIBRIL_STACKS_H

#define _GNU_SOURCE
#include <sched.h>
#include "labtest.h"
#include "asys_test.h"

#define STACKS "/sys/kernel/debug/fibrils/stacks"

struct stacks {
	long allocated, reused, freed, cached;
};

/* read_stacks(s): the four counters; 0, or -1 when the file lacks one (or is not there). */
static inline int read_stacks(struct stacks *s)
{
	static const char *const keys[] = { "allocated", "reused", "freed", "cached" };
	long v[4];
	int ret = read_counters(STACKS, keys, v, 4);

	s->allocated = v[0], s->reused = v[1], s->freed = v[2], s->cached = v[3];
	return ret;
}

/* pin_to(cpu): run on that CPU only from now on; sched_setaffinity's value. */
static inline int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * round_trips(rfd, wfd, n, cookie): n blocking round trips, one at a time: an asys read
 * of one byte on an empty pipe (rfd), a write that wakes it (wfd), await. Each call's
 * fibril stack is freed (or cached) before the next starts. Returns how many completed.
 */
static inline long round_trips(int rfd, int wfd, long n, unsigned long cookie)
{
	static char byte;
	struct asys_completion c;
	unsigned long args[3] = { rfd, (unsigned long)&byte, 1 };
	long i;
	int err;

	for (i = 0; i < n; i++)
		if (asys_submit1(SYS_read, cookie + i, args, 3, &err) != 1 || write(wfd, "x", 1) != 1 ||
		    asys_await_completion(&c) != 1 || c.return_code != 1)
			break;
	return i;
}

#endif
