/*
 * ring_wakeups (Lab 8's optional challenge, hidden): asys_ring_wait(min) is woken once,
 * when the ring holds min entries or no running call can bring more, not at every
 * completion; /sys/kernel/debug/fibrils/ring_wakeups counts those wake-ups ("wakeups N").
 *   1. 8 reads of 8 empty pipes, a thread writes one pipe every 20 ms: asys_ring_wait(8)
 *      returns 8, woken once.
 *   2. one read, asys_ring_wait(1): returns 1, woken once (a waiter for 1 is woken by
 *      the first completion).
 *   3. 2 reads, asys_ring_wait(4): returns 2 once both ended, woken once (no running
 *      call can bring the other 2).
 *   4. asys_await_completion() still wakes at each completion (3 reads, 3 awaits).
 */
#include <pthread.h>
#include "labtest.h"
#include "asys_test.h"

#define WAKEUPS "/sys/kernel/debug/fibrils/ring_wakeups"

static int fds[8][2], ok;
static int writes;

static long wakeups(void)
{
	static const char *const keys[] = { "wakeups" };
	long v;

	return read_counters(WAKEUPS, keys, &v, 1) ? -1 : v;
}

static void *writer(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < writes; i++) {
		usleep(20000);
		if (write(fds[i][1], "x", 1) != 1)
			return (void *)1;
	}
	return NULL;
}

/* n reads, one per pipe; a thread writes each in turn; asys_ring_wait(min) */
static void case_of(int n, unsigned int min, long want_n, const char *what)
{
	static char bytes[8];
	unsigned long args[8][3];
	struct asys_input q[8];
	struct asys_ring *r;
	pthread_t th;
	long w0, got;
	int i;

	asys_watchdog_step = what;
	r = aligned_alloc(4096, 4096);
	ok = r && asys_ring_setup(NULL, 0) == 0 && asys_ring_setup(r, 16) == 0;
	REQUIRE(ok, "%s: a ring of 16 (errno %d)", what, errno);
	for (i = 0; i < n; i++) {
		ok = pipe(fds[i]) == 0;
		REQUIRE(ok, "pipe()");
		args[i][0] = fds[i][0], args[i][1] = (unsigned long)&bytes[i], args[i][2] = 1;
		asys_req(&q[i], SYS_read, i, args[i], 3);
	}
	w0 = wakeups();
	got = asys_submit(q, n);
	REQUIRE(got == n, "%s: %d reads of empty pipes start (got %ld)", what, n, got);
	writes = n;
	ok = pthread_create(&th, NULL, writer, NULL) == 0;
	REQUIRE(ok, "start the writer");
	got = asys_ring_wait(min);
	pthread_join(th, NULL);
	CHECK(got == want_n, "%s: asys_ring_wait(%u) returns %ld (got %ld)", what, min, want_n, got);
	CHECK(wakeups() - w0 == 1, "%s: woken once (ring_wakeups grew by %ld)", what,
	      wakeups() - w0);
	asys_ring_consume(r, asys_ring_ready(r));
	for (i = 0; i < n; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
}

int main(void)
{
	struct asys_completion c;
	long w0;
	int i, n = 0;

	asys_watchdog(30);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	ok = wakeups() >= 0;
	REQUIRE(ok, "%s: want a \"wakeups N\" line (got none)", WAKEUPS);
	case_of(8, 8, 8, "1: 8 reads, asys_ring_wait(8)");
	case_of(1, 1, 1, "2: 1 read, asys_ring_wait(1)");
	case_of(2, 4, 2, "3: 2 reads, asys_ring_wait(4)");

	asys_watchdog_step = "4: asys_await_completion()";
	w0 = wakeups();
	for (i = 0; i < 3; i++) {
		ok = pipe(fds[i]) == 0;
		REQUIRE(ok, "pipe()");
	}
	for (i = 0; i < 3; i++) {
		static char byte;
		unsigned long args[3] = { fds[i][0], (unsigned long)&byte, 1 };
		int err;

		ok = asys_submit1(SYS_read, 40 + i, args, 3, &err) == 1;
		REQUIRE(ok, "a read starts");
	}
	writes = 3;
	{
		pthread_t th;

		ok = pthread_create(&th, NULL, writer, NULL) == 0;
		REQUIRE(ok, "start the writer");
		while (n < 3 && asys_await_completion(&c) == 1)
			n++;
		pthread_join(th, NULL);
	}
	CHECK(n == 3, "asys_await_completion() collects the 3 reads one by one (got %d)", n);
	CHECK(wakeups() == w0, "asys_await_completion()'s waits are not counted (grew by %ld)",
	      wakeups() - w0);
	return labtest_done();
}
