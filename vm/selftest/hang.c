/* Harness self-test: never finish. The grader must end the guest at its timeout. */
#include <unistd.h>

int main(void)
{
	for (;;)
		pause();
}
