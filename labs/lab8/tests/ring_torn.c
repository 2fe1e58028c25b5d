/*
 * ring_torn (the exercise): a thread on another CPU never reads a ring entry before the
 * kernel has written it.
 *
 * The submitter, on CPU 0, starts writes to /dev/null in batches, the k-th of
 * LEN(k) = k % 1000 + 1 bytes with cookie k + 1; none blocks, so they complete in order,
 * the k-th into entry k of a 64-entry ring. A reaper thread on CPU 1 reads the ring as
 * io_uring's readers do: acquire tail, read each entry up to it, release head. Entry k
 * must hold cookie k + 1 and return_code LEN(k): an entry with another cookie or another
 * length (the call's 64 before it, the entry's last lap) was read after tail moved on and
 * before the kernel wrote it, torn. Either field counts: half an entry is torn too. The
 * test counts torn entries over 600,000 completions (or 25 s) and passes with none.
 *
 * On the start tree, asys_ring_post() moves tail on before it writes the entry: the
 * reaper, spinning on tail on the other CPU, now and then reads in between. The window is
 * a few instructions wide, so the test counts rather than hopes: it needs two CPUs, and
 * stops early once it has seen 20 torn entries.
 * Contract: asys_ring_post() in kernel/asys_ring.c writes the entry, then publishes it
 *   with a release store of tail; the ring's layout is the one asys.h gives.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "labtest.h"
#include "asys_test.h"

#define RING_ENTRIES	64
#define BATCH		16
#define TARGET		600000u
#define ENOUGH_TORN	20
#define SECONDS		25

static struct asys_ring *ring;
static volatile int submitting_done;
static unsigned long reaped, first_torn_at = ~0ul;
static volatile unsigned long torn;	/* the submitter stops early on it */
static unsigned long first_torn_cookie, first_torn_want;
static long first_torn_rc;

#define LEN(k) ((long)((k) % 1000) + 1)

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The reader on CPU 1: acquire tail, read, release head. */
static void *reaper(void *arg)
{
	(void)arg;
	if (pin_to(1))
		return (void *)1;
	for (;;) {
		unsigned int ready = asys_ring_ready(ring), i;

		if (!ready) {
			if (submitting_done && !asys_ring_ready(ring))
				break;
			continue;	/* spin: a reader that polls, as it would with io_uring */
		}
		for (i = 0; i < ready; i++) {
			struct asys_completion *c = asys_ring_entry(ring, i);
			unsigned long want = ring->head + i + 1;

			if (c->cookie != want || c->return_code != LEN(want - 1)) {
				if (first_torn_at == ~0ul) {
					first_torn_at = reaped + i;
					first_torn_cookie = c->cookie;
					first_torn_rc = c->return_code;
					first_torn_want = want;
				}
				torn++;
			}
		}
		reaped += ready;
		asys_ring_consume(ring, ready);
	}
	return NULL;
}

int main(void)
{
	static struct asys_input reqs[BATCH];
	static unsigned long args[BATCH][3];
	static char buf[1000];
	unsigned long submitted = 0, eagain = 0;
	int devnull = open("/dev/null", O_WRONLY);
	pthread_t th;
	double until;
	void *ret;
	int i, ok;

	asys_watchdog(SECONDS + 30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	REQUIRE(ok, "two CPUs online: the reader runs on the other one (got %ld)",
		sysconf(_SC_NPROCESSORS_ONLN));
	/* a ring of the test's own size: the one a ring boot registered goes first */
	ok = asys_ring_setup(NULL, 0) == 0;
	REQUIRE(ok, "asys_ring_setup(NULL, 0) unregisters any ring (errno %d)", errno);
	ring = aligned_alloc(4096, 4096);
	REQUIRE(ring != NULL, "memory for the ring");
	ok = asys_ring_setup(ring, RING_ENTRIES) == 0;
	REQUIRE(ok, "asys_ring_setup(ring, %d) returns 0 (errno %d)", RING_ENTRIES, errno);
	REQUIRE(devnull >= 0, "open /dev/null");
	ok = pin_to(0) == 0;
	REQUIRE(ok, "the submitter runs on CPU 0");
	ok = pthread_create(&th, NULL, reaper, NULL) == 0;
	REQUIRE(ok, "start the reader thread");

	asys_watchdog_step = "submitting writes while the other CPU reads the ring";
	until = asys_now_ms() + SECONDS * 1000.0;
	while (submitted < TARGET && torn < ENOUGH_TORN && asys_now_ms() < until) {
		int n = BATCH;
		long r;

		for (i = 0; i < n; i++) {
			args[i][0] = devnull;
			args[i][1] = (unsigned long)buf;
			args[i][2] = LEN(submitted + i);
			asys_req(&reqs[i], SYS_write, submitted + i + 1, args[i], 3);
		}
		r = asys_submit(reqs, n);
		if (r > 0) {
			submitted += r;
		} else if (r == -1 && errno == EAGAIN) {
			eagain++;	/* the ring is full until the reader catches up */
		} else {
			CHECK(0, "asys_submit of %d writes returns how many started (got %ld, %s)",
			      n, r, r == -1 ? asys_errname(errno) : "-");
			break;
		}
	}
	submitting_done = 1;
	pthread_join(th, &ret);
	REQUIRE(ret == NULL, "the reader ran on CPU 1");

	printf("%lu completions read on CPU 1 (%lu submits refused with EAGAIN, ring full)\n",
	       reaped, eagain);
	CHECK(reaped == submitted, "every completion reaches the ring: %lu submitted, %lu read",
	      submitted, reaped);
	CHECK(reaped >= 20000, "at least 20,000 completions were read (%lu)", reaped);
	if (torn)
		printf("first torn entry: completion %lu read as {return_code %ld, cookie %lu}, "
		       "want {%ld, %lu}\n", first_torn_at, first_torn_rc, first_torn_cookie,
		       LEN(first_torn_want - 1), first_torn_want);
	CHECK(torn == 0, "no entry is read before it is written: torn entries 0 (got %lu of %lu)",
	      torn, reaped);
	return labtest_done();
}
