/*
 * fibril_stack_peak (the Lab 2 challenge's hidden test): how deep do fibril stacks go?
 * /sys/kernel/debug/fibrils/stack_peak reads "peak N" (the deepest any fibril stack has
 * been, in bytes, when its fibril was freed) and "measured N" (how many were measured);
 * writing 0 starts over.
 *
 *   1. after a write of 0: peak 0, measured 0;
 *   2. a self-test run of 4 fibrils: measured 4, and a peak deeper than a switch's own
 *      frames (at least 256 bytes: the fibril's function, schedule() and the switch)
 *      and less than the stack;
 *   3. a run of 8 more: measured 12, and the peak never falls;
 *   4. 4 fibrils that spin for 300 ms, taking timer interrupts on their stacks: measured
 *      16, and the peak still within the stack;
 *   5. a write of 0 starts over again; anything else is refused with EINVAL.
 */
#include <fcntl.h>
#include "fibril_selftest.h"
#include "labtest.h"

#define STACK_PEAK "/sys/kernel/debug/fibrils/stack_peak"
#define THREAD_SIZE 8192
#define SWITCH_FRAMES 256

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

static int read_peak(long *peak, long *measured)
{
	return read_counter_pair(STACK_PEAK, "peak", "measured", peak, measured);
}

/* run(line, peak, measured): one self-test run, then the file's two figures. */
static void run(const char *line, long *peak, long *measured)
{
	struct report r;
	long ret = selftest_run(line, &r);

	REQUIRE(ret > 0, "self-test \"%s\" ran (write returned %ld)", line, ret);
	read_peak(peak, measured);
	printf("after \"%s\": peak %ld bytes, measured %ld\n", line, *peak, *measured);
}

int main(void)
{
	long peak, measured, before;
	int err;

	ok = read_peak(&peak, &measured) == 0;
	REQUIRE(ok, "%s reads \"peak N\" and \"measured N\"%s", STACK_PEAK,
		ok ? "" : access(STACK_PEAK, F_OK) ? " (got no such file)" : " (got a file without both)");

	err = write_text(STACK_PEAK, "0");
	read_peak(&peak, &measured);
	CHECK(err == 0 && peak == 0 && measured == 0,
	      "writing 0 starts over: peak 0, measured 0 (write errno %d; peak %ld, measured %ld)",
	      err, peak, measured);

	run("fibrils=4 switches=1000", &peak, &measured);
	CHECK(measured == 4, "4 fibrils freed, 4 stacks measured (got %ld)", measured);
	CHECK(peak >= SWITCH_FRAMES && peak < THREAD_SIZE,
	      "the deepest of them went at least %d bytes deep, and less than %d (got %ld)",
	      SWITCH_FRAMES, THREAD_SIZE, peak);

	before = peak;
	run("fibrils=8 switches=1000", &peak, &measured);
	CHECK(measured == 12, "8 more fibrils freed, 12 stacks measured in all (got %ld)", measured);
	CHECK(peak >= before, "the peak never falls (%ld, then %ld)", before, peak);

	before = peak;
	run("fibrils=4 spin_ms=300", &peak, &measured);
	CHECK(measured == 16, "4 spinning fibrils, 16 stacks measured in all (got %ld)", measured);
	CHECK(peak >= before && peak < THREAD_SIZE,
	      "with timer interrupts on the fibril stacks the peak is %ld (at least %ld, less than %d)",
	      peak, before, THREAD_SIZE);

	err = write_text(STACK_PEAK, "0");
	read_peak(&peak, &measured);
	CHECK(err == 0 && peak == 0 && measured == 0,
	      "writing 0 again starts over (write errno %d; peak %ld, measured %ld)", err, peak, measured);
	err = write_text(STACK_PEAK, "5");
	CHECK(err == EINVAL, "writing anything but 0 is refused with EINVAL (errno %d)", err);
	return labtest_done();
}
