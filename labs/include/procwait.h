/*
 * procwait.h: wait for another task to reach a state, by reading /proc, never by
 * sleeping a guessed time.
 *
 * The guests run on shared, sometimes loaded hosts: "usleep(100 ms), then it must be
 * asleep" fails a correct kernel there, and "it must be asleep" checked too early can
 * let a broken one pass. So a test that needs another task asleep in read() polls
 * /proc/PID/wchan until it says pipe_read, with no time bound of its own: a task that
 * never gets there is a hang, and the test's watchdog (or the grader's per-test
 * timeout) reports it with the step it was in.
 */
#ifndef LAB_PROCWAIT_H
#define LAB_PROCWAIT_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Read /proc/PID/NAME into buf (at most len - 1 bytes); -1 when the task is gone. */
static inline int proc_read(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY);	/* open/read, not stdio: safe in a forked helper */
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? 0 : -1;
}

/* The state letter of /proc/PID/stat ('R', 'S', 'D', 'T', ...), or 0 when it is gone. */
static inline char proc_state(pid_t pid)
{
	char buf[256], *paren;

	if (proc_read(pid, "stat", buf, sizeof(buf)))
		return 0;
	paren = strrchr(buf, ')');	/* the command name may hold spaces and ')' */
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

/* 1 when PID sleeps in the kernel function fn (/proc/PID/wchan names it). */
static inline int proc_wchan_is(pid_t pid, const char *fn)
{
	char name[128];

	return !proc_read(pid, "wchan", name, sizeof(name)) && !strcmp(name, fn);
}

/* Wait until PID sleeps in fn; 0 if the task is gone first. No time bound: see above. */
static inline int proc_wait_wchan(pid_t pid, const char *fn)
{
	while (!proc_wchan_is(pid, fn)) {
		if (!proc_state(pid))
			return 0;
		usleep(1000);
	}
	return 1;
}

#endif
