/* Cheat lab: passes only in a boot whose kernel command line has the mode's argument. */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f || !fgets(line, sizeof(line), f))
		return 2;
	return strstr(line, "lab.selftest=modeargs") ? 0 : 1;
}
