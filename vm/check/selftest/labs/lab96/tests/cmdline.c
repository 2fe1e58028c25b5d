/*
 * Cheat lab: passes only when the kernel command line carries the mode's argument
 * (lab.selftest=modeargs): in the "1+args" boot, not in the "1" boot.
 */
#include "labtest.h"

int main(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	REQUIRE(f && fgets(line, sizeof(line), f), "/proc/cmdline can be read");
	CHECK(strstr(line, "lab.selftest=modeargs"), "the mode's argument is on the command line");
	return labtest_done();
}
