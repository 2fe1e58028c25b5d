/*
 * Lab 1 test: memory reclaim still works with per_call_chain(reclaim_state).
 *
 * A task that reclaims memory records what it freed in current->reclaim_state; the
 * exercise of this lab moves it into task->per_call. This test fills the page cache
 * with a file on the ext4 disk, then allocates more anonymous memory than is free, so
 * the kernel must reclaim clean page cache (direct reclaim in this task, or kswapd).
 * It checks that reclaim ran (Cached: in /proc/meminfo shrank: the lab config has no
 * vm event counters, so /proc/vmstat has no pgsteal_*) and that nothing was killed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "labtest.h"

static long field(const char *file, const char *key)
{
	char line[256];
	long v = -1, sum = 0;
	int found = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)) == 0 &&
		    sscanf(line + strcspn(line, " :"), "%*[ :]%ld", &v) == 1) {
			sum += v;
			found = 1;
		}
	}
	fclose(f);
	return found ? sum : -1;
}

int main(void)
{
	static char chunk[1 << 20];
	long free_kb, cached_kb, cached_after, want_mb, i;
	char **blocks;
	int fd;

	mkdir("/mnt", 0755);
	REQUIRE(mount("/dev/vda", "/mnt", "ext4", 0, "") == 0, "mount /dev/vda on /mnt");
	fd = open("/mnt/cache", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	REQUIRE(fd >= 0, "create /mnt/cache");
	memset(chunk, 0x5a, sizeof(chunk));
	for (i = 0; i < 40 && write(fd, chunk, sizeof(chunk)) == sizeof(chunk); i++)
		;
	REQUIRE(i == 40, "write 40 MiB (%ld written)", i);
	REQUIRE(fsync(fd) == 0, "fsync: the 40 MiB are now clean page cache");
	close(fd);

	free_kb = field("/proc/meminfo", "MemFree:");
	cached_kb = field("/proc/meminfo", "Cached:");
	printf("MemFree %ld kB, Cached %ld kB\n", free_kb, cached_kb);

	/* More than is free, less than free + half the cache: reclaim has to help. */
	want_mb = free_kb / 1024 + 16;
	blocks = calloc(want_mb, sizeof(*blocks));
	for (i = 0; i < want_mb; i++) {
		blocks[i] = malloc(sizeof(chunk));
		if (!blocks[i])
			break;
		memset(blocks[i], (int)i, sizeof(chunk));
	}
	REQUIRE(i == want_mb, "allocate and touch %ld MiB (got %ld)", want_mb, i);
	cached_after = field("/proc/meminfo", "Cached:");
	printf("Cached %ld kB -> %ld kB\n", cached_kb, cached_after);
	CHECK(cached_after < cached_kb - 8 * 1024,
	      "page reclaim freed clean page cache (%ld kB)", cached_kb - cached_after);
	for (i = 0; i < want_mb; i++)
		free(blocks[i]);
	free(blocks);

	CHECK(unlink("/mnt/cache") == 0, "unlink /mnt/cache");
	CHECK(umount("/mnt") == 0, "umount /mnt");
	return labtest_done();
}
