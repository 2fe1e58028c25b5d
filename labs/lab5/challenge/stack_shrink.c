/*
 * stack_shrink (the Lab 5 challenge's hidden test): under memory pressure the fibril
 * stack caches give their stacks back, on every CPU.
 *
 * "echo 2 > /proc/sys/vm/drop_caches" asks every shrinker to free what it can, and
 * returns when they have; the counters are /sys/kernel/debug/fibrils/stacks.
 *   1. round trips pinned to each online CPU in turn leave stacks in that CPU's cache;
 *   2. the write to drop_caches returns with every cache empty ("cached 0"), each
 *      stack that left a cache counted as freed ("freed" grows by as many), and
 *      KernelStack as it was (a cached stack is not a stack in use);
 *   3. the caches work again after: 20 round trips reuse at least 15 stacks;
 *   4. a drop with nothing cached returns and frees nothing.
 */
#include "fibril_stacks.h"
#include <fcntl.h>
#include "kstack.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */
static int fds[2];

/* drop_caches(): echo 2 > /proc/sys/vm/drop_caches (slab objects: the shrinkers). */
static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, "2", 1);
	close(fd);
	return n == 1 ? 0 : -1;
}

int main(void)
{
	struct stacks a, b;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), cpu, done, baseline, now;

	asys_watchdog(120);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit");
	ok = read_stacks(&a) == 0;
	REQUIRE(ok, "%s has the counters allocated, reused, freed, cached%s", STACKS,
		ok ? "" : access(STACKS, F_OK) ? " (got no such file: the Lab 5 exercise comes first)"
					       : " (got a file without all four)");
	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");

	asys_watchdog_step = "1: round trips on each CPU";
	for (cpu = 0; cpu < cpus; cpu++) {
		ok = pin_to(cpu) == 0;
		REQUIRE(ok, "run on CPU %ld (got errno %d)", cpu, ok ? 0 : errno);
		done = round_trips(fds[0], fds[1], 10, 100 * cpu);
		CHECK(done == 10, "10 round trips on CPU %ld (%ld done)", cpu, done);
	}
	ok = pin_to(0) == 0;
	REQUIRE(ok, "back to CPU 0");
	baseline = kernel_stack_baseline();
	read_stacks(&a);
	printf("before the drop: %ld CPU(s), cached %ld, freed %ld, KernelStack %ld kB\n",
	       cpus, a.cached, a.freed, baseline);
	REQUIRE(a.cached >= cpus, "each CPU's cache holds a stack before the drop (%ld cached on %ld CPUs)",
		a.cached, cpus);

	asys_watchdog_step = "2: echo 2 > /proc/sys/vm/drop_caches";
	ok = drop_caches() == 0;
	REQUIRE(ok, "write 2 to /proc/sys/vm/drop_caches (got errno %d)", ok ? 0 : errno);
	read_stacks(&b);
	printf("after the drop: cached %ld, freed +%ld\n", b.cached, b.freed - a.freed);
	CHECK(b.cached == 0, "when the write to drop_caches returns, every CPU's cache is empty "
	      "(cached %ld before, %ld after)", a.cached, b.cached);
	CHECK(b.freed - a.freed == a.cached, "each stack that left a cache counts as freed "
	      "(%ld left, freed grew by %ld)", a.cached - b.cached, b.freed - a.freed);
	now = kernel_stack_settle(baseline);
	CHECK(now == baseline, "KernelStack as before the drop: %ld kB (before %ld kB)", now, baseline);

	asys_watchdog_step = "3: round trips after the drop";
	a = b;
	done = round_trips(fds[0], fds[1], 20, 1000);
	read_stacks(&b);
	CHECK(done == 20 && b.reused - a.reused >= 15,
	      "after the drop the cache works again: %ld of 20 round trips, %ld stacks reused "
	      "(expected at least 15)", done, b.reused - a.reused);

	asys_watchdog_step = "4: a drop with nothing cached";
	ok = drop_caches() == 0 && read_stacks(&a) == 0 && drop_caches() == 0 && read_stacks(&b) == 0;
	CHECK(ok && b.cached == 0 && b.freed == a.freed,
	      "a drop with every cache empty returns and frees nothing (cached %ld, freed +%ld)",
	      b.cached, b.freed - a.freed);
	return labtest_done();
}
