/*
 * Cheat lab 94: the kernel panics with the expected message, but before the test armed:
 * the panic is not the test's doing. FAIL.
 *
 * Expected panic: sysrq triggered crash
 */
#include "sysrq_crash.h"

int main(void)
{
	sysrq_crash();
	arm();
	return 1;
}
