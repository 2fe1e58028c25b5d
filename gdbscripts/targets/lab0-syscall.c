/* The program the Lab 0 walkthrough stops in: one getppid() system call. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	long ppid = syscall(SYS_getppid);

	printf("lab0-syscall: getppid() = %ld\n", ppid);
	return 0;
}
