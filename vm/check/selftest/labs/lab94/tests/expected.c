/*
 * Cheat lab 94: arms, then the kernel panics with the expected message. PASS.
 *
 * Expected panic: sysrq triggered crash
 */
#include "sysrq_crash.h"

int main(void)
{
	arm();
	sysrq_crash();
	return 1;
}
