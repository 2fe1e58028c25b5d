/*
 * qexit STATUS: end QEMU with STATUS through the isa-debug-exit device.
 *
 * QEMU is started with -device isa-debug-exit,iobase=0xf4,iosize=0x04. A value v
 * written to port 0xf4 makes QEMU exit with (v << 1) | 1. We write v = STATUS + 1
 * (STATUS 0..126; more is written as 126), so QEMU's exit status is 3 or more
 * whenever the guest got here. The two statuses QEMU gives by itself cannot alias
 * a guest's: 0 (the guest rebooted or panicked: -no-reboot) and 1 (QEMU failed, for
 * example at start-up). The exact status is in the log's "lab-end" line (init).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status = argc > 1 ? atoi(argv[1]) : 0;

	if (status < 0 || status > 126)
		status = 126;

	sync();
	if (ioperm(0xf4, 4, 1) == 0)
		outb(status + 1, 0xf4);
	/* Without the device: reboot, which QEMU (-no-reboot) turns into its exit. */
	perror("qexit: isa-debug-exit");
	reboot(RB_AUTOBOOT);	/* -no-reboot makes QEMU exit */
	return 1;
}
