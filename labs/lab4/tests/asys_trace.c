/*
 * asys_trace: system call tracing sees an asys call as it sees the same call made
 * synchronously.
 *
 * perf trace, eBPF syscall monitors and ftrace's raw_syscalls events all hang on the two
 * tracepoints of the system call entry, sys_enter (number, six arguments) and sys_exit
 * (number, return value). A call on a fibril does not pass the entry: unless the kernel
 * reports it from the fibril, a monitor sees the process call asys_submit() and nothing
 * of what it submitted.
 *
 * The test turns on raw_syscalls:sys_enter and sys_exit in tracefs, filtered to this
 * process and to lseek and read, then makes
 *   1. lseek(fd, 12345, SEEK_SET), synchronously (the oracle);
 *   2. lseek(fd, 54321, SEEK_SET) through asys (it completes without blocking);
 *   3. read(pipe, buf, 5) through asys: it blocks on its fibril until the test writes
 *      five bytes, and its sys_exit is reported when it resumes there.
 * The trace must hold, in order, an enter and an exit for each: the same number, the
 * arguments given and the value returned, as the synchronous call shows.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "labtest.h"
#include "asys_test.h"

#define TRACEFS "/sys/kernel/tracing"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static int put(const char *file, const char *value)
{
	char path[128];
	int fd, ret;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		printf("open %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = write(fd, value, strlen(value)) == (ssize_t)strlen(value) ? 0 : -1;
	if (ret)
		printf("write \"%s\" to %s: %s\n", value, path, strerror(errno));
	close(fd);
	return ret;
}

/* Turn the two events on (filtered to this process, lseek and read) or off. */
static int trace_syscalls(int on)
{
	char filter[128];
	int err = 0;

	snprintf(filter, sizeof(filter), "common_pid == %d && (id == %d || id == %d)",
		 getpid(), SYS_lseek, SYS_read);
	err |= put("tracing_on", "0");
	err |= put("events/raw_syscalls/sys_enter/enable", on ? "1" : "0");
	err |= put("events/raw_syscalls/sys_exit/enable", on ? "1" : "0");
	err |= put("events/raw_syscalls/sys_enter/filter", on ? filter : "0");
	err |= put("events/raw_syscalls/sys_exit/filter", on ? filter : "0");
	if (on) {
		err |= put("trace", "");	/* empty the buffer */
		err |= put("tracing_on", "1");
	}
	return err;
}

#define MAX_EVENTS 16
struct event {
	int exit;		/* 0: sys_enter, 1: sys_exit */
	long nr;
	unsigned long args[6];	/* sys_enter */
	long ret;		/* sys_exit */
};

/* Parse the trace's sys_enter/sys_exit lines into ev[]; returns how many. */
static int read_events(struct event *ev)
{
	char line[512], *p;
	int n = 0;
	FILE *f = fopen(TRACEFS "/trace", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAX_EVENTS) {
		struct event *e = &ev[n];

		if (line[0] == '#')
			continue;
		printf("  trace: %s", line);
		if ((p = strstr(line, "sys_enter: NR "))) {
			e->exit = 0;
			if (sscanf(p, "sys_enter: NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", &e->nr,
				   &e->args[0], &e->args[1], &e->args[2], &e->args[3], &e->args[4],
				   &e->args[5]) == 7)
				n++;
		} else if ((p = strstr(line, "sys_exit: NR "))) {
			e->exit = 1;
			if (sscanf(p, "sys_exit: NR %ld = %ld", &e->nr, &e->ret) == 2)
				n++;
		}
	}
	fclose(f);
	return n;
}

static int is_enter(const struct event *e, long nr, unsigned long a0, unsigned long a1,
		    unsigned long a2)
{
	return !e->exit && e->nr == nr && e->args[0] == a0 && e->args[1] == a1 && e->args[2] == a2;
}

static int is_exit(const struct event *e, long nr, long ret)
{
	return e->exit && e->nr == nr && e->ret == ret;
}

int main(void)
{
	struct asys_completion c;
	struct asys_input req;
	unsigned long args[3];
	struct event ev[MAX_EVENTS];
	int fd, p[2], n, i;
	long r, r_read = -1;
	char buf[8];

	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	if (access(TRACEFS "/trace", F_OK) != 0)
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	ok = access(TRACEFS "/events/raw_syscalls/sys_enter/enable", W_OK) == 0;
	REQUIRE(ok, "%s has the raw_syscalls events (CONFIG_FTRACE_SYSCALLS)", TRACEFS);
	fd = open("/proc/self/exe", O_RDONLY);
	REQUIRE(fd >= 0 && pipe(p) == 0, "a file and a pipe");
	ok = trace_syscalls(1) == 0;
	REQUIRE(ok, "raw_syscalls:sys_enter and sys_exit on, for this process's lseek and read");

	/* syscall(): glibc's lseek() is _llseek on i386 */
	r = syscall(SYS_lseek, fd, 12345, SEEK_SET);
	CHECK(r == 12345, "synchronous lseek(fd, 12345, SEEK_SET) returned %ld", r);

	args[0] = fd, args[1] = 54321, args[2] = SEEK_SET;
	asys_req(&req, SYS_lseek, 1, args, 3);
	r = asys_submit(&req, 1);
	CHECK(r == 1 && asys_await_completion(&c) == 1 && c.return_code == 54321,
	      "asys lseek(fd, 54321, SEEK_SET) completed with %ld", r == 1 ? (long)c.return_code : r);

	args[0] = p[0], args[1] = (unsigned long)buf, args[2] = 5;
	asys_req(&req, SYS_read, 2, args, 3);
	r = asys_submit(&req, 1);
	CHECK(r == 1, "asys read(pipe, buf, 5) submitted; it blocks on its fibril");
	usleep(50 * 1000);
	if (write(p[1], "hello", 5) != 5)
		printf("write to the pipe: %s\n", strerror(errno));
	if (r == 1 && asys_await_completion(&c) == 1)
		r_read = c.return_code;
	CHECK(r_read == 5, "the read completed with %ld after the write", r_read);

	trace_syscalls(0);
	n = read_events(ev);
	REQUIRE(n >= 0, "read %s/trace", TRACEFS);
	printf("%d sys_enter/sys_exit events of this process's lseek and read\n", n);
	i = 0;
	CHECK(n > i + 1 && is_enter(&ev[i], SYS_lseek, fd, 12345, SEEK_SET) &&
	      is_exit(&ev[i + 1], SYS_lseek, 12345),
	      "the synchronous lseek: sys_enter NR %d (%d, 3039, 0, ...), sys_exit = 12345",
	      SYS_lseek, fd);
	i += 2;
	CHECK(n > i + 1 && is_enter(&ev[i], SYS_lseek, fd, 54321, SEEK_SET) &&
	      is_exit(&ev[i + 1], SYS_lseek, 54321),
	      "the asys lseek, the same: sys_enter NR %d (%d, d431, 0, ...), sys_exit = 54321",
	      SYS_lseek, fd);
	i += 2;
	CHECK(n > i + 1 && is_enter(&ev[i], SYS_read, p[0], (unsigned long)buf, 5) &&
	      is_exit(&ev[i + 1], SYS_read, 5),
	      "the asys read that blocked: sys_enter NR %d (%d, %lx, 5, ...), then sys_exit = 5 "
	      "from its fibril", SYS_read, p[0], (unsigned long)buf);
	CHECK(n == i + 2, "nothing else (%d events, expected %d)", n, i + 2);
	return labtest_done();
}
