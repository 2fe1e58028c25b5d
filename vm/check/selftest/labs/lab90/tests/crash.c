/*
 * Cheat lab: an exercise that "fails" on the start tree by crashing (SIGSEGV). That is
 * not the designated failure: the grader must call it a defect of the lab, not an OK.
 */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("about to die of SIGSEGV\n");
	fflush(stdout);
	raise(SIGSEGV);
	return 0;
}
