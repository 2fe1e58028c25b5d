/*
 * Lab 6: your two-request reproducer. `make handin LAB=6` packs this file into your
 * hand-in (as handin/reproducer.c); make grade-all builds it as the tests are built
 * (gcc -m32 -static) and runs it alone in a guest of your kernel, and people read it and
 * what it printed.
 *
 * Replace this program with the smallest one that shows the defect you put into your
 * Lab 4 solution: one asys_submit() of two requests, then what the kernel does wrong.
 * Say in a comment here what it prints on the broken kernel and on a correct one.
 */
#include <stdio.h>
#include "asys.h"

int main(void)
{
	printf("reproducer: not written yet\n");
	return 1;
}
