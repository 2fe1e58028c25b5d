/*
 * Lab 6: your reproducer. `make handin LAB=6` packs this file into your
 * hand-in (as handin/reproducer.c); make grade-all builds it as the tests are built
 * (gcc -m32 -static) and runs it alone in a guest of your kernel, and people read it and
 * what it printed.
 *
 * Replace this program with the smallest one that shows the defect of patch 6 (Lab 6's
 * start tree): a few asys calls, then what the kernel does wrong. It must fail (exit 1)
 * every time on the start tree and pass (exit 0) on a kernel without the defect:
 *   make run-guest PROG=repro LAB=6 MINE=1    your kernel (build/lab6)
 *   make run-guest PROG=repro LAB=5           Lab 5's solved kernel: no patch 6
 * Say in a comment here what it prints on each.
 */
#include <stdio.h>
#include "asys_test.h"

int main(void)
{
	printf("reproducer: not written yet\n");
	return 1;
}
