/*
 * labtest.h: the few helpers every in-guest test uses.
 *
 * A test is a static i386 program. It prints diagnostics (the guest's /init prefixes
 * them with "# ") and exits 0 when every check held. /init turns that exit status
 * into one TAP line, "ok N - name" or "not ok N - name".
 *
 * An exit status alone is a verdict the kernel under test could rewrite. So a test ends
 * with labtest_done(), whose summary line carries the counts and the boot's nonce (which
 * /init hands each test as LABTEST_NONCE): the host passes a test only when it exited 0
 * AND its own summary, with this boot's nonce, says no check failed and at least one
 * passed (tap_result in vm/lib.sh).
 */
#ifndef LABTEST_H
#define LABTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int labtest_failures, labtest_passes;

/*
 * LABTEST_REPORT(ok, "condition", fmt, ...): one check's line, "pass: ..." or "FAIL: ...
 * <-- (condition)". Write the message as what was expected and what happened ("... gives
 * ENOSYS (got %ld)"): a FAIL line is all a student sees of a failure.
 */
#define LABTEST_REPORT(ok, cond_text, ...)                                     \
	do {                                                                   \
		int ok_ = (ok);                                                \
		printf("%s: ", ok_ ? "pass" : "FAIL");                         \
		printf(__VA_ARGS__);                                           \
		printf("%s\n", ok_ ? "" : "   <-- (" cond_text ")");          \
		fflush(stdout);                                                \
		if (!ok_)                                                      \
			labtest_failures++;                                    \
		else                                                           \
			labtest_passes++;                                      \
	} while (0)

/* CHECK(cond, fmt, ...): report one check; a failed check fails the test, which goes on. */
#define CHECK(cond, ...) LABTEST_REPORT(!!(cond), #cond, __VA_ARGS__)

/* REQUIRE: like CHECK, but a failure ends the test at once (nothing after it makes sense). */
#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		int req_ = !!(cond); /* once: cond may have side effects */    \
		LABTEST_REPORT(req_, #cond, __VA_ARGS__);                      \
		if (!req_)                                                     \
			exit(1);                                               \
	} while (0)

/* labtest_done(): the test's summary line (see the top), and its exit status. */
static inline int labtest_done(void)
{
	const char *nonce = getenv("LABTEST_NONCE");

	printf("labtest: %d passed, %d failed, nonce=%s\n", labtest_passes, labtest_failures,
	       nonce ? nonce : "none");
	fflush(stdout);
	return labtest_failures ? 1 : 0;
}

/*
 * write_text(path, text): write text to a file (a debugfs knob); 0, or the errno the
 * open or the write failed with.
 */
static inline int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * read_counters(path, keys, vals, n): a file of "key value" lines (the kernel's debugfs
 * counters) into vals[i] for keys[i]; 0 when each of the n keys was there, else -1.
 */
static inline int read_counters(const char *path, const char *const keys[], long vals[], int n)
{
	char key[32];
	long val;
	int i, found = 0;
	FILE *f = fopen(path, "r");

	for (i = 0; i < n; i++)
		vals[i] = 0;
	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", key, &val) == 2)
		for (i = 0; i < n; i++)
			if (!strcmp(key, keys[i])) {
				vals[i] = val;
				found++;
			}
	fclose(f);
	return found == n ? 0 : -1;
}

/* read_counter_pair(path, "held", "released", &a, &b): read_counters() for two keys */
static inline int read_counter_pair(const char *path, const char *key_a, const char *key_b,
				    long *a, long *b)
{
	const char *const keys[] = { key_a, key_b };
	long v[2];
	int ret = read_counters(path, keys, v, 2);

	*a = v[0], *b = v[1];
	return ret;
}

/* status_field(pid, "Name:", buf, len): the value of a /proc/PID/status line, or NULL. */
static inline char *status_field(int pid, const char *key, char *buf, size_t len)
{
	char path[64], line[256];
	FILE *f;
	char *found = NULL;

	snprintf(path, sizeof(path), pid ? "/proc/%d/status" : "/proc/self/status", pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)) == 0) {
			char *v = line + strlen(key);

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(buf, len, "%s", v);
			found = buf;
			break;
		}
	}
	fclose(f);
	return found;
}

/* status_number(pid, "Key:"): a numeric /proc/PID/status field (pid 0: self), or -1. */
static inline long status_number(int pid, const char *key)
{
	char buf[64];

	return status_field(pid, key, buf, sizeof(buf)) ? atol(buf) : -1;
}

#endif
