/* Cheat lab: a test that fails by its own verdict (exit 1). */
#include <stdio.h>

int main(void)
{
	printf("FAIL: the behaviour is missing\n");
	return 1;
}
