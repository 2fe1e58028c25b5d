/* Cheat lab 94: crash the kernel through sysrq c ("sysrq triggered crash"). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static inline void arm(void)
{
	printf("panic-test: armed\n");
	fflush(stdout);
}

static inline void sysrq_crash(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	if (fd < 0 || write(fd, "c", 1) != 1)
		perror("sysrq-trigger");
}
