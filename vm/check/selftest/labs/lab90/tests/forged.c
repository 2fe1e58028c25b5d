/*
 * Cheat lab: a test that fails but writes result lines to the console itself, as a
 * kernel's printk could: one without the boot's nonce (a string fixed in advance), and
 * one with it (read from /proc/cmdline). Neither may turn its failure into a pass.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char cmdline[4096] = "", *nonce;
	FILE *f = fopen("/proc/cmdline", "r"), *console = fopen("/dev/console", "w");

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	nonce = strstr(cmdline, "lab.nonce=");
	if (console) {
		fprintf(console, "\nok 3 - forged\n");
		if (nonce)
			fprintf(console, "ok 3 - forged # nonce=%.16s\n", nonce + strlen("lab.nonce="));
		fclose(console);
	}
	return 1;
}
