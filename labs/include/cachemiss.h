/*
 * cachemiss.h: switch asys to cachemiss mode for one test (Lab 7), and count how often
 * the user context moved to a new stack.
 *
 * kernel.asys_cachemiss=1 makes asys_submit() run each call on the submitter's own
 * stack; only a call that blocks costs a stack, the one the user context moves to.
 * /sys/kernel/debug/fibrils/cachemiss counts those moves ("moves N"), machine-wide: a
 * test that counts them must run alone, as make check runs every test.
 */
#ifndef LAB_CACHEMISS_H
#define LAB_CACHEMISS_H

#include <stdio.h>
#include <stdlib.h>
#include "labtest.h"

#define CACHEMISS_SYSCTL "/proc/sys/kernel/asys_cachemiss"

static int cachemiss_saved = -1;

/* The mode now (0 or 1), or -1 if this kernel has no kernel.asys_cachemiss. */
static inline int cachemiss_mode(void)
{
	FILE *f = fopen(CACHEMISS_SYSCTL, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Write the mode; 0 when the kernel took it. */
static inline int cachemiss_set(int on)
{
	FILE *f = fopen(CACHEMISS_SYSCTL, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", on) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* The mode the boot had, back: the next test runs in it (atexit and the watchdog hook). */
static void cachemiss_restore(void)
{
	if (cachemiss_saved >= 0)
		cachemiss_set(cachemiss_saved);
}

/* Cachemiss mode for the rest of this test; 0 on success. */
static inline int cachemiss_on(void)
{
	cachemiss_saved = cachemiss_mode();
	if (cachemiss_saved < 0)
		return -1;
	atexit(cachemiss_restore);
	return cachemiss_set(1);
}

/* How often the user context has moved so far, machine-wide; -1 if unknown. */
static inline long cachemiss_moves(void)
{
	static const char *const keys[] = { "moves" };
	long v;

	return read_counters("/sys/kernel/debug/fibrils/cachemiss", keys, &v, 1) ? -1 : v;
}

#endif
