/*
 * Cheat lab 94 and 95: arms, the kernel does not panic, and the test says so (exit 1).
 * On a solved tree: FAIL. As an exercise on a start tree (lab 95): the designated
 * failure, PASS.
 *
 * Expected panic: sysrq triggered crash
 */
#include "sysrq_crash.h"

int main(void)
{
	arm();
	printf("FAIL: the kernel did not panic\n");
	return 1;
}
