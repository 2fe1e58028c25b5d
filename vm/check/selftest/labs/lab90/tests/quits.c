/*
 * Cheat lab: a test that stops before its checks, with exit status 0 (an early exit,
 * or a kernel that ended it and reported 0): no summary line, so no pass.
 */
#include <stdio.h>

int main(void)
{
	printf("pass: a line that looks like a check, and nothing after it\n");
	return 0;
}
