/* Cheat lab: a hidden test that fails anywhere, as an unsolved challenge's does. */
#include <stdio.h>

int main(void)
{
	printf("FAIL: the challenge is solved (expected a kernel with the answer, got one without)\n");
	return 1;
}
