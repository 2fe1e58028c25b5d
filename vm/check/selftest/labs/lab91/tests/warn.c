/*
 * Cheat lab: a test that passes while the kernel log shows a warning. Here the line is
 * written to /dev/kmsg, so it comes with a printk timestamp, as a real WARN() would.
 */
#include "labtest.h"

int main(void)
{
	FILE *kmsg = fopen("/dev/kmsg", "w");

	if (kmsg) {
		fprintf(kmsg, "WARNING: CPU: 0 PID: 1 at selftest/warn.c:1 the grader's self-test\n");
		fclose(kmsg);
	}
	CHECK(1, "a check that holds while the kernel warns");
	return labtest_done();
}
