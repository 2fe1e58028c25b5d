/*
 * Lab 1 test: path walk behaviour is unchanged by per_call_chain().
 *
 * Patch 1 moves current->nameidata, the pointer that links a nested path walk to the
 * walk that started it, into task->per_call. The walk's symlink limits depend on it:
 *   - 40 symlinks in one walk resolve (MAXSYMLINKS), the 41st gives ELOOP;
 *   - a symlink loop gives ELOOP;
 *   - /proc/self/fd/N and /proc/self/cwd are "magic links": nd_jump_link() reads
 *     current->nameidata to jump straight to the file, even an unlinked one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "labtest.h"

#define DIR_ "/tmp/links"

/* link_i -> link_{i-1} -> ... -> link_0 -> target: a chain of n symlinks ends at link_n. */
static void make_chain(int n)
{
	char name[64], to[64];
	int i;

	for (i = 0; i <= n; i++) {
		snprintf(name, sizeof(name), DIR_ "/link_%d", i);
		if (i == 0)
			snprintf(to, sizeof(to), "target");
		else
			snprintf(to, sizeof(to), "link_%d", i - 1);
		unlink(name);
		REQUIRE(symlink(to, name) == 0, "symlink %s -> %s", name, to);
	}
}

static int open_errno(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int main(void)
{
	char buf[PATH_MAX], path[64];
	struct stat st;
	int fd, n;

	mkdir(DIR_, 0755);
	fd = open(DIR_ "/target", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	REQUIRE(fd >= 0 && write(fd, "fibril", 6) == 6, "create " DIR_ "/target");
	close(fd);

	/* link_39 is the 40th link of the chain (link_0 .. link_39). */
	make_chain(40);
	CHECK(open_errno(DIR_ "/link_39") == 0, "a chain of 40 symlinks resolves");
	CHECK(open_errno(DIR_ "/link_40") == ELOOP, "41 symlinks give ELOOP (got %s)",
	      strerror(open_errno(DIR_ "/link_40")));
	CHECK(stat(DIR_ "/link_40", &st) == -1 && errno == ELOOP, "stat() on 41 links: ELOOP");
	CHECK(lstat(DIR_ "/link_40", &st) == 0 && S_ISLNK(st.st_mode),
	      "lstat() does not follow: the 41st link itself is fine");

	/* The count is per walk, not per link: a directory link in the middle counts too. */
	unlink(DIR_ "/dirlink");
	REQUIRE(symlink(".", DIR_ "/dirlink") == 0, "symlink dirlink -> .");
	CHECK(open_errno(DIR_ "/dirlink/link_38") == 0, "1 + 39 links in one walk resolve");
	CHECK(open_errno(DIR_ "/dirlink/link_39") == ELOOP, "1 + 40 links in one walk: ELOOP");

	/* Loops. */
	unlink(DIR_ "/loop_a");
	unlink(DIR_ "/loop_b");
	unlink(DIR_ "/self");
	REQUIRE(symlink("loop_b", DIR_ "/loop_a") == 0 && symlink("loop_a", DIR_ "/loop_b") == 0,
		"make loop_a <-> loop_b");
	REQUIRE(symlink("self", DIR_ "/self") == 0, "make self -> self");
	CHECK(open_errno(DIR_ "/loop_a") == ELOOP, "a two-link loop gives ELOOP");
	CHECK(open_errno(DIR_ "/self") == ELOOP, "a link to itself gives ELOOP");
	CHECK(open(DIR_ "/link_0", O_RDONLY | O_NOFOLLOW) == -1 && errno == ELOOP,
	      "O_NOFOLLOW on a symlink gives ELOOP");

	/* Magic links: /proc/self/fd/N jumps to the open file, even after unlink. */
	fd = open(DIR_ "/link_10", O_RDONLY);
	REQUIRE(fd >= 0, "open through 11 links");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(strcmp(buf, DIR_ "/target") == 0, "readlink %s = %s", path, buf);
	REQUIRE(unlink(DIR_ "/target") == 0, "unlink the target");
	{
		int fd2 = open(path, O_RDONLY);
		char data[8] = "";

		CHECK(fd2 >= 0, "open(%s) after unlink: the magic link still jumps to the file", path);
		if (fd2 >= 0) {
			CHECK(read(fd2, data, 6) == 6 && memcmp(data, "fibril", 6) == 0,
			      "and reads its data: \"%.6s\"", data);
			close(fd2);
		}
	}
	CHECK(open_errno(DIR_ "/link_10") == ENOENT, "the chain now dangles: ENOENT");
	close(fd);

	REQUIRE(chdir(DIR_) == 0, "chdir " DIR_);
	CHECK(stat("/proc/self/cwd/link_0", &st) == -1 && errno == ENOENT,
	      "/proc/self/cwd/link_0 walks through the cwd magic link (dangling: ENOENT)");
	CHECK(stat("/proc/self/cwd/loop_a", &st) == -1 && errno == ELOOP,
	      "/proc/self/cwd/loop_a: ELOOP across a magic link");
	CHECK(readlink("/proc/self/exe", buf, sizeof(buf)) > 0, "/proc/self/exe reads");
	return labtest_done();
}
