/*
 * fibrils.h: helpers for the Lab 2 tests, which drive the kernel's fibril
 * self-test (/sys/kernel/debug/fibrils/selftest, kernel/fibril_selftest.c).
 *
 * A write of "fibrils=N switches=K" (or "fibrils=N spin_ms=M", optionally
 * "corrupt=1") runs the self-test in the writing thread; reading the same
 * open file afterwards gives that run's report as "key value" lines.
 */
#ifndef LAB2_FIBRILS_H
#define LAB2_FIBRILS_H

#include <fcntl.h>
#include <unistd.h>
#include "labtest.h"

#define SELFTEST "/sys/kernel/debug/fibrils/selftest"

struct report {
	long fibrils, switches, checks_failed, refused, elapsed_ms, status;
	char result[32];
};

/*
 * Run one self-test: returns what write() returned (the length on success),
 * or -errno; fills *rep with the report read back through the same fd.
 */
static inline long selftest_run(const char *line, struct report *rep)
{
	char buf[512], *p, *save;
	long ret;
	ssize_t n;
	int fd = open(SELFTEST, O_RDWR);

	memset(rep, 0, sizeof(*rep));
	if (fd < 0)
		return -errno;
	ret = write(fd, line, strlen(line));
	if (ret < 0)
		ret = -errno;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n < 0)
		return ret;
	buf[n] = '\0';
	for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		char key[32], val[32];

		if (sscanf(p, "%31s %31s", key, val) != 2)
			continue;
		if (!strcmp(key, "fibrils"))
			rep->fibrils = atol(val);
		else if (!strcmp(key, "switches"))
			rep->switches = atol(val);
		else if (!strcmp(key, "checks_failed"))
			rep->checks_failed = atol(val);
		else if (!strcmp(key, "refused"))
			rep->refused = atol(val);
		else if (!strcmp(key, "elapsed_ms"))
			rep->elapsed_ms = atol(val);
		else if (!strcmp(key, "status"))
			rep->status = atol(val);
		else if (!strcmp(key, "result"))
			snprintf(rep->result, sizeof(rep->result), "%s", val);
	}
	return ret;
}

/*
 * "KernelStack:" of /proc/meminfo in kB, or -1.  The kernel counts it in
 * per-cpu deltas that are only folded into the total now and then, so the
 * raw value can be off by a few stacks; writing /proc/sys/vm/stat_refresh
 * folds them first, which makes the value exact.
 */
static inline long kernel_stack_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f;
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			perror("stat_refresh");
		close(fd);
	}
	f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "KernelStack: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * KernelStack: once nothing else changes it.  Other kernel stacks come and
 * go too: the previous test's processes finishing their exit, and busybox
 * timeout's watcher process, which polls once a second and so outlives the
 * test it watched by up to a second.  Wait until readings agree for 1.5 s.
 */
static inline long kernel_stack_baseline(void)
{
	long prev = kernel_stack_kb(), now;
	int i, same = 0;

	for (i = 0; i < 100 && same < 15; i++) {
		usleep(100 * 1000);
		now = kernel_stack_kb();
		same = now == prev ? same + 1 : 0;
		prev = now;
	}
	return prev;
}

/* KernelStack back at baseline?  Give exiting tasks up to five seconds. */
static inline long kernel_stack_settle(long baseline)
{
	long now = kernel_stack_kb();
	int i;

	for (i = 0; i < 50 && now != baseline; i++) {
		usleep(100 * 1000);
		now = kernel_stack_kb();
	}
	return now;
}

#endif
