/*
 * kstack_peak (the Lab 0 challenge's hidden test): /proc/PID/status reports how deep the
 * task's kernel stack has ever been, as "KStackPeak:\t<bytes>" after KStackUsed:.
 *
 *   1. our own status: KStackUsed <= KStackPeak < KStackSize (the lowest word of the
 *      stack is the end-of-stack canary, never a frame);
 *   2. the peak never falls: twenty reads in a row, each at least the one before and at
 *      least the KStackUsed of the same read;
 *   3. a child that stat()s a /proc file, then sleeps in read(): its peak is deeper than
 *      where it sleeps by at least 256 bytes (its fork return, page faults and the path
 *      walk all went deeper than pipe_read()'s sleep; measured: about 1,200 bytes), and
 *      two reads by its parent agree: reading a task's status does not move its peak,
 *      and the peak is the child's, not the reader's.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "labtest.h"
#include "procwait.h"

#define DEEPER_THAN_SLEEP 256

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

int main(void)
{
	long size, used, peak, prev = 0, child_used, child_peak, again, low_peak = 0, low_used = 0;
	int fds[2], i, rising = 1, above_used = 1;
	struct stat st;
	pid_t child;
	char c;

	size = status_number(0, "KStackSize:");
	REQUIRE(size > 0, "/proc/self/status has KStackSize:, the Lab 0 exercise (got %ld)", size);
	peak = status_number(0, "KStackPeak:");
	REQUIRE(peak >= 0, "/proc/self/status has a \"KStackPeak:\\t<bytes>\" line (%s)",
		peak >= 0 ? "it has" : "got none");
	used = status_number(0, "KStackUsed:");
	CHECK(used <= peak && peak < size,
	      "our own status: KStackUsed <= KStackPeak < KStackSize (got %ld, %ld, %ld)", used, peak, size);

	for (i = 0; i < 20; i++) {
		char buf[4096];
		FILE *f = fopen("/proc/self/status", "r");
		size_t n;

		if (!f)
			break;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* both fields of the same read */
		used = strstr(buf, "KStackUsed:") ? atol(strstr(buf, "KStackUsed:") + 11) : -1;
		peak = strstr(buf, "KStackPeak:") ? atol(strstr(buf, "KStackPeak:") + 11) : -1;
		if (peak < prev)
			rising = 0;
		if (peak < used && above_used) {
			above_used = 0;
			low_peak = peak;
			low_used = used;
		}
		prev = peak;
	}
	CHECK(i == 20 && rising, "20 reads of our own KStackPeak never fell (read %d; last %ld)", i, prev);
	CHECK(above_used, "each read's KStackPeak was at least its KStackUsed (lowest got: peak %ld, used %ld)",
	      low_peak, low_used);

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe() for the child");
	child = fork();
	if (child < 0)
		REQUIRE(child >= 0, "fork() a child (got %d)", (int)child);
	if (child == 0) {
		stat("/proc/self/status", &st);
		_exit(read(fds[0], &c, 1) == 1 ? 0 : 1);
	}
	ok = proc_wait_wchan(child, "pipe_read");
	REQUIRE(ok, "the child sleeps in read() (/proc/%d/wchan says pipe_read)", (int)child);
	child_used = status_number(child, "KStackUsed:");
	child_peak = status_number(child, "KStackPeak:");
	again = status_number(child, "KStackPeak:");
	CHECK(child_peak >= child_used + DEEPER_THAN_SLEEP && child_peak < size,
	      "a sleeping child that had stat()ed a /proc file: its KStackPeak is at least %d bytes "
	      "deeper than its KStackUsed, and less than %ld (got peak %ld, used %ld)",
	      DEEPER_THAN_SLEEP, size, child_peak, child_used);
	CHECK(again == child_peak, "reading the child's status twice gives the same peak (%ld, then %ld)",
	      child_peak, again);
	c = 'x';
	ok = write(fds[1], &c, 1) == 1;
	CHECK(ok, "wake the child (got errno %d)", ok ? 0 : errno);
	waitpid(child, NULL, 0);
	return labtest_done();
}
