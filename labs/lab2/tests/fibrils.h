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
#include "kstack.h"

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

#endif
