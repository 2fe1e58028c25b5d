/*
 * syscalls: the guest machinery every lab relies on works on this kernel:
 * system calls, fork/wait, pipes, threads (futex) and 32-bit time calls, and
 * every CPU QEMU was given (LAB_SMP, from the kernel command line) is online.
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "labtest.h"

static void *thread_main(void *arg)
{
	*(long *)arg = syscall(SYS_gettid);
	return NULL;
}

int main(void)
{
	int fds[2], status;
	char c = 0;
	long tid = 0;
	pid_t child;
	pthread_t t;
	struct timespec a, b, nap = { 0, 20 * 1000 * 1000 };

	const char *smp = getenv("LAB_SMP");

	CHECK(getpid() == syscall(SYS_getpid), "getpid() agrees with the raw system call");
	/* The grader always says how many CPUs QEMU was given: a missing LAB_SMP is a failure. */
	REQUIRE(smp != NULL, "LAB_SMP (the CPUs QEMU was given) is set: %s", smp ? smp : "unset");
	CHECK(sysconf(_SC_NPROCESSORS_ONLN) == atol(smp),
	      "%ld CPU(s) online, as QEMU was given %s", sysconf(_SC_NPROCESSORS_ONLN), smp);

	REQUIRE(pipe(fds) == 0, "pipe()");
	child = fork();
	REQUIRE(child >= 0, "fork()");
	if (child == 0) {
		write(fds[1], "x", 1);
		_exit(7);
	}
	CHECK(read(fds[0], &c, 1) == 1 && c == 'x', "the child's byte arrives through the pipe");
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 7,
	      "wait4 returns the child's exit status 7");

	CHECK(pthread_create(&t, NULL, thread_main, &tid) == 0 && pthread_join(t, NULL) == 0,
	      "a thread starts and is joined (clone + futex)");
	CHECK(tid > 0 && tid != getpid(), "the thread had its own tid (%ld)", tid);

	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK(syscall(SYS_nanosleep, &nap, NULL) == 0, "nanosleep (32-bit time call)");
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) >= 20000000L,
	      "nanosleep slept at least 20 ms");
	return labtest_done();
}
