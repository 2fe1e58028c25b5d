/* Harness self-test: crash the guest kernel (sysrq c). The grader must say so. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	write(fd, "c", 1);
	return 0;	/* not reached: the kernel panicked */
}
