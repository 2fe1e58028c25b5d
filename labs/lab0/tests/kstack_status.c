/*
 * kstack_status (Lab 0 exercise): /proc/PID/status reports the task's kernel stack.
 *
 *   KStackSize:  THREAD_SIZE, the size of task->stack (8192 on i386)
 *   KStackUsed:  bytes between the top of task->stack and the task's kernel stack
 *                pointer: live %esp for the reader itself, thread.sp for a task that
 *                is switched out.
 *
 * Nobody outside the kernel knows a task's stack pointer, so the test checks what must
 * hold of the right one, for tasks it puts where their depth is known:
 *   - the two lines are whole ("Name:\tdigits\n", like their neighbours);
 *   - every value is a multiple of 4 (the kernel keeps %esp word-aligned) and lies
 *     between sizeof(pt_regs) and THREAD_SIZE;
 *   - a task asleep in select() is deeper than one asleep in read() by at least the
 *     256-byte fd bitmap core_sys_select() keeps on its stack (and do_select()'s
 *     poll_wqueues below it): each task's own pointer, not the reader's, not a constant;
 *   - a task reading its own status right after select() woke it is not where it slept:
 *     for the reader, the saved thread.sp is stale;
 *   - pinning a task's stack to read it does not keep the stack: 64 tasks read, reaped,
 *     and KernelStack of /proc/meminfo comes back (a missing put_task_stack() leaks 8 kB
 *     a task read).
 * Wrong answers these reject: labs/lab0/wrong/ (instructors' tree).
 */
#include <ctype.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>
#include "labtest.h"
#include "kstack.h"
#include "procwait.h"

#define PT_REGS_SIZE 68		/* struct pt_regs on i386: 17 longs */
#define SELECT_STACK_FDS 256	/* core_sys_select()'s on-stack fd bitmap, SELECT_STACK_ALLOC */
#define READ_LEAK_TASKS 64

static unsigned long kstack_used(pid_t pid)
{
	char buf[64];

	if (!status_field(pid, "KStackUsed:", buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 0);
}

/*
 * Each of the two lines is whole, as its neighbours are: "Name:\tdigits\n". A reader
 * (grep, a parser, the next line someone adds) relies on the newline as much as on
 * the number.
 */
static int whole_line(const char *status, const char *name)
{
	const char *at = strstr(status, name);
	size_t n = strlen(name);

	if (!at || (at != status && at[-1] != '\n') || at[n] != '\t' || !isdigit((unsigned char)at[n + 1]))
		return 0;
	at += n + 1;
	while (isdigit((unsigned char)*at))
		at++;
	return *at == '\n';
}

static int sane(unsigned long used)
{
	return used > PT_REGS_SIZE && used < 8192 && used % 4 == 0;
}

/*
 * Wait until pid sleeps in select(). Its name in wchan depends on what the compiler
 * inlined (do_select, core_sys_select, do_pselect), but the child sleeps nowhere else:
 * the first 'S' is select().
 */
static void wait_in_select(pid_t pid)
{
	char state;

	while ((state = proc_state(pid)) && state != 'S')
		usleep(1000);
}

/* A child asleep in read() of fd until a byte comes; then it exits. */
static pid_t sleeper_in_read(int fd)
{
	pid_t child = fork();

	if (child == 0) {
		char c;

		read(fd, &c, 1);
		_exit(0);
	}
	return child;
}

int main(void)
{
	char buf[64], status[4096];
	unsigned long size = 0, used = 0, in_read, in_select, after_select = 0;
	int wake[2], sel[2], report[2], i, forked;
	long baseline, settled;
	pid_t reader, selecter, leak[READ_LEAK_TASKS];

	REQUIRE(status_field(0, "KStackSize:", buf, sizeof(buf)),
		"/proc/self/status has a KStackSize: line (expected \"KStackSize:\\t8192\"; got no such line)");
	size = strtoul(buf, NULL, 0);
	CHECK(size == 8192, "KStackSize is THREAD_SIZE = 8192 (got %lu)", size);

	REQUIRE(status_field(0, "KStackUsed:", buf, sizeof(buf)),
		"/proc/self/status has a KStackUsed: line (expected one after KStackSize:; got no such line)");
	used = strtoul(buf, NULL, 0);
	REQUIRE(proc_read(getpid(), "status", status, sizeof(status)) == 0, "read /proc/self/status whole");
	CHECK(whole_line(status, "KStackSize:") && whole_line(status, "KStackUsed:"),
	      "KStackSize: and KStackUsed: are whole lines, \"Name:\\tdigits\\n\", like their neighbours");
	CHECK(sane(used), "reading our own status uses %lu bytes: word-aligned, more than pt_regs, less than the stack",
	      used);

	/* Two sleepers at known depths: read() of a pipe, and select() on one. */
	REQUIRE(pipe(wake) == 0 && pipe(sel) == 0 && pipe(report) == 0, "pipe()");
	reader = sleeper_in_read(wake[0]);
	selecter = fork();
	if (selecter == 0) {
		fd_set readable;

		FD_ZERO(&readable);
		FD_SET(sel[0], &readable);
		select(sel[0] + 1, &readable, NULL, NULL, NULL);
		/* woken: where is this task now, by its own reading? */
		after_select = kstack_used(0);
		write(report[1], &after_select, sizeof(after_select));
		_exit(0);
	}
	REQUIRE(reader > 0 && selecter > 0, "fork() two sleepers");
	/* However long a loaded host takes: a child that has not run yet shows its fork frame. */
	proc_wait_wchan(reader, "pipe_read");
	wait_in_select(selecter);
	in_read = kstack_used(reader);
	in_select = kstack_used(selecter);
	CHECK(sane(in_read), "a task asleep in read() uses %lu bytes of its kernel stack", in_read);
	CHECK(sane(in_select), "a task asleep in select() uses %lu bytes of its kernel stack", in_select);
	CHECK(in_select >= in_read + SELECT_STACK_FDS,
	      "asleep in select() is deeper than asleep in read() by at least select's %d-byte fd bitmap "
	      "(select %lu, read %lu): each task's own stack pointer, not the reader's or a constant",
	      SELECT_STACK_FDS, in_select, in_read);

	/* A byte for each sleeper, each on its own pipe: select() reads nothing. */
	write(wake[1], "x", 1);
	write(sel[1], "x", 1);
	REQUIRE(read(report[0], &after_select, sizeof(after_select)) == sizeof(after_select),
		"the select() child reports its own KStackUsed");
	CHECK(sane(after_select) && after_select != in_select,
	      "a task that reads its own status is where it reads (%lu bytes), not where it last slept "
	      "(%lu, in select()): for the reader, thread.sp is stale", after_select, in_select);
	waitpid(reader, NULL, 0);
	waitpid(selecter, NULL, 0);

	/* Reading a task's stack pins it for the read only. */
	baseline = kernel_stack_baseline();
	for (i = 0; i < READ_LEAK_TASKS; i++)
		leak[i] = sleeper_in_read(wake[0]);
	for (i = 0, forked = 1; i < READ_LEAK_TASKS; i++)
		forked &= leak[i] > 0;
	REQUIRE(forked, "fork() %d sleepers", READ_LEAK_TASKS);
	for (i = 0; i < READ_LEAK_TASKS; i++) {
		proc_wait_wchan(leak[i], "pipe_read");
		kstack_used(leak[i]);
	}
	for (i = 0; i < READ_LEAK_TASKS; i++)
		write(wake[1], "x", 1);
	for (i = 0; i < READ_LEAK_TASKS; i++)
		waitpid(leak[i], NULL, 0);
	settled = kernel_stack_settle(baseline);
	CHECK(settled == baseline,
	      "after reading %d tasks' status and reaping them, KernelStack is back to %ld kB (got %ld kB): "
	      "every stack pinned to read it is given back", READ_LEAK_TASKS, baseline, settled);
	return labtest_done();
}
