/*
 * The program the Lab 1 walkthrough stops in. It does the two things patch 1 is about:
 *  1. creates a file on the journalled ext4 disk (ext4 starts a jbd2 handle and parks it
 *     in per_call_chain(journal_info));
 *  2. opens /proc/self/fd/N, a magic link: nd_jump_link() has no nameidata argument and
 *     finds the walk in progress through per_call_chain(nameidata).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	char path[64];
	int fd, fd2;

	mkdir("/mnt", 0755);
	if (mount("/dev/vda", "/mnt", "ext4", 0, "")) {
		perror("mount /dev/vda");
		return 1;
	}
	fd = open("/mnt/journalled", O_CREAT | O_WRONLY, 0644);	/* 1: a jbd2 handle */
	if (fd < 0 || write(fd, "fibril\n", 7) != 7 || fsync(fd))
		return 1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	fd2 = open(path, O_RDONLY);				/* 2: a magic link */
	printf("lab1-per-call: opened %s -> fd %d\n", path, fd2);
	close(fd);
	close(fd2);
	umount("/mnt");
	return 0;
}
