/*
 * ring_held_creds: a thread that reads its completions from its ring, and so never calls
 * asys_await_completion() or asys_ring_wait(), gets back the credentials the kernel held
 * for it while its calls ran.
 *
 * Lab 4's rule: credentials the thread replaces while a call runs are held until no call
 * runs (asys_held_creds tells why). Lab 4 released them where the thread collects a
 * completion, in asys_await_completion(); a thread with a ring collects in user space,
 * and held ones piled up for as long as it lived. The kernel now releases them in
 * asys_submit() too: there the thread is in no other call, and when no call of it runs,
 * nothing can still use them.
 *
 *   1. With a pipe read pending, setgid() there and back holds 2.
 *   2. The read completes into the ring, and the thread reads it there.
 *   3. Its next asys_submit(), with no call running, releases both.
 *   4. 100 rounds of 1-3: what is held never grows past one round's 2, and ends at 0.
 * Runs as root in the guest (setgid back to 0 needs CAP_SETGID, which stays).
 * Contract: /sys/kernel/debug/fibrils/held_creds ("held N", "released N").
 */
#include <sys/syscall.h>
#include "labtest.h"
#include "asys_test.h"

#define HELD_FILE "/sys/kernel/debug/fibrils/held_creds"
#define ROUNDS 100

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */
static unsigned char mem[ASYS_RING_BYTES(8)] __attribute__((aligned(8)));
static struct asys_ring *const ring = (struct asys_ring *)mem;

/* held_now(): the credentials held and not released yet, from the kernel's counters */
static long held_now(void)
{
	long held, released;

	return read_counter_pair(HELD_FILE, "held", "released", &held, &released) ? -1 :
		held - released;
}

/* setgid() there and back: two commits of new credentials */
static int toggle_gid(void)
{
	return syscall(SYS_setgid32, 1) == 0 && syscall(SYS_setgid32, 0) == 0;
}

static int submit(int nr, unsigned long cookie, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long nr_args)
{
	unsigned long args[ASYS_MAX_ARGS] = { a0, a1, a2 };
	int err;

	return asys_submit1(nr, cookie, args, nr_args, &err) == 1;
}

/*
 * reap(c): the next entry of the ring, read in user space. Sleeping between looks lets
 * the call's chain run (a fibril runs when the thread's own chain sleeps). 0: none in 5 s.
 */
static int reap(struct asys_completion *c)
{
	int i;

	for (i = 0; i < 5000 && !asys_ring_ready(ring); i++)
		usleep(1000);
	if (!asys_ring_ready(ring))
		return 0;
	*c = *asys_ring_entry(ring, 0);
	asys_ring_consume(ring, 1);
	return 1;
}

/* round(cookie): steps 1-3 once; what was held after each step in held[3] */
static int round_trip(unsigned long cookie, int fds[2], long held[3])
{
	struct asys_completion c;
	char byte;
	int right = 1;

	right &= submit(SYS_read, cookie, fds[0], (unsigned long)&byte, 1, 3);
	right &= toggle_gid();
	held[0] = held_now();
	right &= write(fds[1], "a", 1) == 1;
	right &= reap(&c) && c.cookie == cookie && c.return_code == 1 && byte == 'a';
	held[1] = held_now();
	right &= submit(SYS_getpid, cookie + 1, 0, 0, 0, 0);
	held[2] = held_now();
	right &= reap(&c) && c.cookie == cookie + 1 && c.return_code == getpid();
	return right;
}

int main(void)
{
	int fds[2], i, rounds_right = 0;
	long base, held[3], most = 0;

	ok = asys_present();
	REQUIRE(ok, "asys_submit is a system call of this kernel");
	base = held_now();
	REQUIRE(base >= 0, "%s can be read: the kernel keeps replaced credentials", HELD_FILE);
	REQUIRE(getuid() == 0, "the test runs as root (setgid back to 0)");
	asys_watchdog(60);
	/* the harness's ring, if this boot registered one, makes way for this test's own */
	asys_ring_setup(NULL, 0);
	ok = asys_ring_setup(ring, 8) == 0;
	REQUIRE(ok, "a ring of 8 entries is registered (errno %d)", errno);
	REQUIRE(pipe(fds) == 0, "pipe()");

	asys_watchdog_step = "one round";
	ok = round_trip(10, fds, held);
	REQUIRE(ok, "a read completes into the ring with its byte, and a getpid() after it");
	CHECK(held[0] - base == 2, "with a read pending, two setgid()s hold 2 (%ld)", held[0] - base);
	CHECK(held[2] - base == 0,
	      "the next asys_submit(), with no call running, releases both (held after it: %ld; "
	      "after the read was reaped from the ring, before that submit: %ld)",
	      held[2] - base, held[1] - base);

	asys_watchdog_step = "rounds";
	for (i = 0; i < ROUNDS; i++) {
		rounds_right += round_trip(100 + 2 * i, fds, held);
		if (held[0] - base > most)
			most = held[0] - base;
	}
	CHECK(rounds_right == ROUNDS, "%d rounds of read, setgid(), reap and submit (%d right)",
	      ROUNDS, rounds_right);
	CHECK(most <= 2 && held_now() - base == 0,
	      "what is held never grows past one round's 2 (at most %ld) and ends at 0 (%ld), "
	      "with no asys_await_completion() or asys_ring_wait() in between",
	      most, held_now() - base);
	return labtest_done();
}
