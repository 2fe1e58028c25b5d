/*
 * qexit STATUS: end QEMU with STATUS through the isa-debug-exit device.
 *
 * QEMU is started with -device isa-debug-exit,iobase=0xf4,iosize=0x04. A byte
 * written to port 0xf4 makes QEMU exit with (byte << 1) | 1, so the host reads
 * the guest's status back as (qemu_status - 1) / 2. An exit status of 0 from
 * QEMU therefore always means the guest did not get here (panic, reboot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status = argc > 1 ? atoi(argv[1]) : 0;

	sync();
	if (ioperm(0xf4, 4, 1) == 0)
		outb(status & 0x7f, 0xf4);
	/* Without the device: reboot, which QEMU (-no-reboot) turns into its exit. */
	perror("qexit: isa-debug-exit");
	reboot(RB_AUTOBOOT);	/* -no-reboot makes QEMU exit */
	return 1;
}
