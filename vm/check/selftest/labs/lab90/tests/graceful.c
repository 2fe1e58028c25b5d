/* Cheat lab: an exercise that fails as an exercise must on a start tree: exit 1. */
#include <stdio.h>

int main(void)
{
	printf("FAIL: expected the exercise's behaviour, got none (the start tree)\n");
	return 1;
}
