/*
 * Harness self-test: never finish. The grader must end the guest at its timeout.
 * The line first proves the guest got here: a boot slower than the timeout must not
 * pass this check by accident.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("selftest: hanging now\n");
	fflush(stdout);
	for (;;)
		pause();
}
