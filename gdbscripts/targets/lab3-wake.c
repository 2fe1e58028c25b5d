/*
 * The program the Lab 3 walkthrough stops in: one small self-test run in
 * mode=waitqueue (fibril 0 wakes fibril 1, which sleeps on a wait queue of
 * its own), through the debugfs file patches 2 and 3 add.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	const char *cmd = "mode=waitqueue fibrils=2 rounds=2\n";
	char report[1024] = "";
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
		printf("lab3-wake: self-test report:\n%s", report);
	close(fd);
	return 0;
}
