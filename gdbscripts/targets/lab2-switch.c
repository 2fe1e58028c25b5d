/*
 * The program the Lab 2 walkthrough stops in: one small fibril self-test run
 * (two fibrils, a few switches), through the debugfs file patch 2 adds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	const char *cmd = "fibrils=2 switches=4\n";
	char report[512] = "";
	int fd = open("/sys/kernel/debug/fibrils/selftest", O_RDWR);

	if (fd < 0) {
		perror("open /sys/kernel/debug/fibrils/selftest");
		return 1;
	}
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd)) {
		perror("fibril selftest");
		return 1;
	}
	lseek(fd, 0, SEEK_SET);
	if (read(fd, report, sizeof(report) - 1) > 0)
		printf("lab2-switch: self-test report:\n%s", report);
	close(fd);
	return 0;
}
