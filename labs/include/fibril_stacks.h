/*
 * fibril_stacks.h: the counters of Lab 5's fibril stack cache,
 * /sys/kernel/debug/fibrils/stacks ("allocated N", "reused N", "freed N", "cached N"),
 * and pinning the test to one CPU (each CPU has a cache of its own).
 */
#ifndef FIBRIL_STACKS_H
#define FIBRIL_STACKS_H

#define _GNU_SOURCE
#include <sched.h>
#include "labtest.h"

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

#endif
