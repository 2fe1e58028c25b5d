/*
 * Harness self-test: crash the guest kernel (sysrq c). The grader must say so.
 * The line before proves the kernel booted and ran us: a kernel that panics during
 * boot must not pass this check by accident.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	printf("selftest: crashing the kernel now\n");
	fflush(stdout);
	write(fd, "c", 1);
	return 0;	/* not reached: the kernel panicked */
}
