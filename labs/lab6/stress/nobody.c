/*
 * nobody: run a program as uid/gid 65534 (the guest's busybox has no su or setuidgid).
 * stress-ng refuses to run its exec stressor as root: `nobody stress-ng --exec 1 ...`.
 */
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nobody PROGRAM [ARG...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("nobody: set ids");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
