/*
 * Cheat lab 94: arms, then the kernel panics, but not with the panic the test expects.
 * A kernel that dies some other way has not done the exercise. FAIL.
 *
 * Expected panic: fibril: corrupted stack end detected before switching to it
 */
#include "sysrq_crash.h"

int main(void)
{
	arm();
	sysrq_crash();
	return 1;
}
