/*
 * kstack.h: KernelStack: of /proc/meminfo, the tests' leak meter for kernel stacks.
 *
 * Every task stack and every fibril stack (8 KiB each on i386) is counted there, so a
 * fibril whose stack is never freed shows up as a KernelStack that does not come back
 * to its baseline. Shared by the Lab 2 self-test tests and the Lab 4 asys tests.
 */
#ifndef LAB_KSTACK_H
#define LAB_KSTACK_H

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

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

/*
 * The one rule for "KernelStack has settled", which every test that looks for a leaked
 * stack uses: KernelStack is at most baseline + slack_kb. Poll until it is, for at most
 * seconds: a bound on the failure path only. Stacks are freed through RCU, which a
 * starved guest on a loaded host delays by seconds, so a check that must not fail a
 * correct kernel gives it 15 to 30 s. Returns the last reading.
 * slack_kb is 0 for a baseline from kernel_stack_baseline() (settled itself), and
 * KSTACK_ONE_STACK_KB for a single reading taken while other tasks come and go (an
 * exited task's stack goes back a little after the task is reaped).
 */
#define KSTACK_ONE_STACK_KB 8

static inline long kernel_stack_settle_within(long baseline, long slack_kb, int seconds)
{
	struct timespec t;
	double end;
	long now;

	clock_gettime(CLOCK_MONOTONIC, &t);
	end = t.tv_sec + t.tv_nsec / 1e9 + seconds;
	while ((now = kernel_stack_kb()) < 0 || now > baseline + slack_kb) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec + t.tv_nsec / 1e9 >= end)
			break;
		usleep(10 * 1000);
	}
	return now;
}

/* KernelStack back at a settled baseline?  Give exiting tasks (and RCU) up to 30 s. */
static inline long kernel_stack_settle(long baseline)
{
	return kernel_stack_settle_within(baseline, 0, 30);
}

#endif
