/*
 * fibril_selftest.h: drive the kernel's fibril self-test
 * (/sys/kernel/debug/fibrils/selftest, kernel/fibril_selftest.c) from the
 * Lab 2 and Lab 3 tests.
 *
 * A write of one line ("fibrils=N switches=K", "mode=waitqueue fibrils=N",
 * ...) runs the self-test in the writing thread; reading the same open file
 * afterwards gives that run's report as "key value" lines.  Keys a kernel
 * does not print (Lab 2's has no wake-up modes) stay 0.
 */
#ifndef LAB_FIBRIL_SELFTEST_H
#define LAB_FIBRIL_SELFTEST_H

#include <fcntl.h>
#include <unistd.h>
#include "labtest.h"
#include "kstack.h"

#define SELFTEST "/sys/kernel/debug/fibrils/selftest"

struct report {
	long fibrils, switches, checks_failed, refused, elapsed_ms, status;
	long rounds, wakeups, spurious, early, min_sleep_us, max_sleep_us, max_asleep;
	char mode[32], result[32];
};

/* Store one "key value" line of the report in *rep. */
static inline void report_set(struct report *rep, const char *key, const char *val)
{
	static const char *const keys[] = {
		"fibrils", "switches", "checks_failed", "refused", "elapsed_ms", "status",
		"rounds", "wakeups", "spurious", "early", "min_sleep_us", "max_sleep_us",
		"max_asleep",
	};
	long *const vals[] = {
		&rep->fibrils, &rep->switches, &rep->checks_failed, &rep->refused,
		&rep->elapsed_ms, &rep->status, &rep->rounds, &rep->wakeups,
		&rep->spurious, &rep->early, &rep->min_sleep_us, &rep->max_sleep_us,
		&rep->max_asleep,
	};
	unsigned int i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			*vals[i] = atol(val);
	if (!strcmp(key, "mode"))
		snprintf(rep->mode, sizeof(rep->mode), "%s", val);
	else if (!strcmp(key, "result"))
		snprintf(rep->result, sizeof(rep->result), "%s", val);
}

/*
 * Run one self-test: returns what write() returned (the length on success),
 * or -errno; fills *rep with the report read back through the same fd.
 */
static inline long selftest_run(const char *line, struct report *rep)
{
	char buf[1024], *p, *save;
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

		if (sscanf(p, "%31s %31s", key, val) == 2)
			report_set(rep, key, val);
	}
	return ret;
}

#endif
