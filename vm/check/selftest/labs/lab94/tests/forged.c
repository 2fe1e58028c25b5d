/*
 * Cheat lab 94: arms, prints the expected panic line itself and exits 0. The guest did
 * not die: FAIL.
 *
 * Expected panic: sysrq triggered crash
 */
#include "sysrq_crash.h"

int main(void)
{
	arm();
	printf("Kernel panic - not syncing: sysrq triggered crash\n");
	return 0;
}
