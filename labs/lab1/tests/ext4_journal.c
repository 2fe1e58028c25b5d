/*
 * Lab 1 test: the jbd2 journal still works with per_call_chain(journal_info).
 *
 * ext4 keeps the running transaction's handle in current->journal_info (patch 1:
 * per_call_chain(journal_info)), so a nested start in the same call chain reuses it
 * instead of deadlocking on its own transaction. This test mounts the ext4 file system
 * make check put on the virtio disk and runs create / write / fsync / rename / unlink
 * in two threads, with O_DIRECT I/O (block plugging: per_call_chain(plug)), then checks
 * every surviving file and unmounts cleanly. The host then runs `e2fsck -fn` on the
 * image (labs/lab1/host/e2fsck.sh): a handle lost or shared between call chains would
 * leave the journal or the bitmaps inconsistent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "labtest.h"

#define MNT "/mnt"
#define ROUNDS 150

/* The content of file i: a pattern anyone can recompute. */
static void fill(unsigned char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(seed * 31 + i * 7 + (i >> 9));
}

static size_t size_of(unsigned int i) { return 1 + (i * 4099) % 65536; }

struct worker { int id; int errors; };

static void *churn(void *arg)
{
	struct worker *w = arg;
	static __thread unsigned char buf[65536];
	char dir[64], tmp[96], final[96];
	unsigned int i;

	snprintf(dir, sizeof(dir), MNT "/t%d", w->id);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		w->errors++;
		return NULL;
	}
	for (i = 0; i < ROUNDS; i++) {
		size_t len = size_of(i + w->id * 1000);
		int fd;

		snprintf(tmp, sizeof(tmp), "%s/tmp.%u", dir, i);
		snprintf(final, sizeof(final), "%s/f.%u", dir, i);
		fill(buf, len, i + w->id * 1000);
		fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, len) != (ssize_t)len || fsync(fd)) {
			printf("thread %d round %u: create/write/fsync: %s\n", w->id, i, strerror(errno));
			w->errors++;
		}
		if (fd >= 0)
			close(fd);
		if (rename(tmp, final)) {
			printf("thread %d: rename: %s\n", w->id, strerror(errno));
			w->errors++;
		}
		/* Keep one file in three; unlink the others a round later. */
		if (i > 0 && (i - 1) % 3 != 0) {
			snprintf(final, sizeof(final), "%s/f.%u", dir, i - 1);
			if (unlink(final)) {
				printf("thread %d: unlink: %s\n", w->id, strerror(errno));
				w->errors++;
			}
		}
	}
	return NULL;
}

static int verify(int id)
{
	static unsigned char want[65536], got[65536];
	unsigned int i;
	int bad = 0, kept = 0;

	for (i = 0; i < ROUNDS; i++) {
		char path[96];
		int fd;
		size_t len = size_of(i + id * 1000);
		int should_exist = (i % 3 == 0) || i == ROUNDS - 1;

		snprintf(path, sizeof(path), MNT "/t%d/f.%u", id, i);
		fd = open(path, O_RDONLY);
		if ((fd >= 0) != should_exist) {
			printf("%s: exists=%d, expected %d\n", path, fd >= 0, should_exist);
			bad++;
		}
		if (fd < 0)
			continue;
		kept++;
		fill(want, len, i + id * 1000);
		if (read(fd, got, sizeof(got)) != (ssize_t)len || memcmp(want, got, len)) {
			printf("%s: wrong content\n", path);
			bad++;
		}
		close(fd);
	}
	printf("thread %d: %d files kept and verified\n", id, kept);
	return bad;
}

/* O_DIRECT goes through blk_start_plug() / the bio list without the page cache. */
static int direct_io(void)
{
	void *w, *r;
	int fd, bad = 0;
	const size_t len = 256 * 1024;

	if (posix_memalign(&w, 4096, len) || posix_memalign(&r, 4096, len))
		return 1;
	fill(w, len, 77);
	fd = open(MNT "/direct", O_CREAT | O_RDWR | O_DIRECT | O_TRUNC, 0644);
	if (fd < 0)
		return printf("open O_DIRECT: %s\n", strerror(errno)), 1;
	if (pwrite(fd, w, len, 0) != (ssize_t)len || pread(fd, r, len, 0) != (ssize_t)len ||
	    memcmp(w, r, len))
		bad = 1;
	close(fd);
	free(w);
	free(r);
	return bad;
}

int main(void)
{
	struct worker w[2] = { { 0, 0 }, { 1, 0 } };
	pthread_t t[2];
	int i, ret;

	mkdir(MNT, 0755);
	ret = mount("/dev/vda", MNT, "ext4", 0, "");
	REQUIRE(ret == 0, "mount /dev/vda (ext4, journalled) on " MNT "%s%s",
		ret ? ": " : "", ret ? strerror(errno) : "");
	for (i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, churn, &w[i]) == 0, "start thread %d", i);
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		CHECK(w[i].errors == 0, "thread %d: %d rounds of create/write/fsync/rename/unlink",
		      i, ROUNDS);
	}
	for (i = 0; i < 2; i++)
		CHECK(verify(i) == 0, "thread %d: every surviving file has its content", i);
	CHECK(direct_io() == 0, "O_DIRECT write and read back 256 KiB");
	sync();
	ret = umount(MNT);
	/* a passing check prints no stale errno */
	CHECK(ret == 0, "umount " MNT "%s%s", ret ? ": " : "", ret ? strerror(errno) : "");
	return labtest_done();
}
