/*
 * kstack_status (Lab 0 exercise): /proc/PID/status reports the task's kernel stack.
 *
 *   KStackSize:  THREAD_SIZE, the size of task->stack (8192 on i386)
 *   KStackUsed:  bytes between the top of task->stack and the task's kernel stack
 *                pointer: live %esp for the reader itself, thread.sp for a task that
 *                is switched out.
 *
 * A task asleep in read() has its user registers (struct pt_regs) at the top of its
 * stack and the scheduler's frames below them, so it uses more than sizeof(pt_regs).
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "labtest.h"
#include "procwait.h"

#define PT_REGS_SIZE 68	/* struct pt_regs on i386: 17 longs */

int main(void)
{
	char buf[64];
	unsigned long size = 0, used = 0;
	int fds[2];
	pid_t child;

	REQUIRE(status_field(0, "KStackSize:", buf, sizeof(buf)),
		"/proc/self/status has a KStackSize: line (expected \"KStackSize:\\t8192\"; got no such line)");
	size = strtoul(buf, NULL, 0);
	CHECK(size == 8192, "KStackSize is THREAD_SIZE = 8192 (got %lu)", size);

	REQUIRE(status_field(0, "KStackUsed:", buf, sizeof(buf)),
		"/proc/self/status has a KStackUsed: line (expected one after KStackSize:; got no such line)");
	used = strtoul(buf, NULL, 0);
	CHECK(used > PT_REGS_SIZE && used < size,
	      "reading our own status uses %lu bytes: more than pt_regs, less than the stack", used);

	REQUIRE(pipe(fds) == 0, "pipe()");
	child = fork();
	REQUIRE(child >= 0, "fork()");
	if (child == 0) {
		char c;

		read(fds[0], &c, 1);	/* sleeps until the parent writes */
		_exit(0);
	}
	/*
	 * Wait until the child sleeps in its read(), however long a loaded host
	 * takes: a child that has not run yet would show only its fork frame.
	 */
	proc_wait_wchan(child, "pipe_read");
	REQUIRE(status_field(child, "KStackUsed:", buf, sizeof(buf)),
		"the sleeping child's status has a KStackUsed: line (expected one; got no such line)");
	used = strtoul(buf, NULL, 0);
	CHECK(used > PT_REGS_SIZE && used < size,
	      "a task asleep in read() uses %lu bytes of its kernel stack", used);
	write(fds[1], "x", 1);
	waitpid(child, NULL, 0);
	return labtest_done();
}
