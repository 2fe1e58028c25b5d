/*
 * The Lab 0 demo (make demo, until the asys lab replaces it): what this kernel is,
 * and one look at a task's kernel stack through /proc/self/status.
 */
#include <sys/utsname.h>
#include <unistd.h>
#include "labtest.h"

int main(void)
{
	struct utsname u;
	char size[32], used[32];

	uname(&u);
	printf("kernel:   %s %s (%s)\n", u.sysname, u.release, u.machine);
	printf("cpus:     %ld online\n", sysconf(_SC_NPROCESSORS_ONLN));
	printf("me:       pid %d, a 32-bit static program in an initramfs\n", getpid());
	if (status_field(0, "KStackSize:", size, sizeof(size)) &&
	    status_field(0, "KStackUsed:", used, sizeof(used)))
		printf("my kernel stack: %s bytes, %s in use while the kernel wrote this line\n", size, used);
	else
		printf("my kernel stack: /proc/self/status does not show it yet (the Lab 0 exercise)\n");
	printf("\nNext: make qemu-gdb LAB=0 and make gdb LAB=0, then labs/lab0/README.md.\n");
	return 0;
}
