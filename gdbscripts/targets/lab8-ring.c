/*
 * The program the Lab 8 walkthrough stops in: cachemiss mode, a completion ring of 8
 * entries, and two asynchronous read(2)s of an empty pipe, one after the other. Each read
 * blocks, the user context moves to a spare, the write wakes the read, and its completion
 * (5 bytes, cookie 8, then 9) is written into the ring by the read's own chain while the
 * thread waits in asys_ring_wait(). The second read's spare is the stack the first read
 * ended on, kept unwiped for this task.
 */
#include <unistd.h>
#include "asys_test.h"
#include "cachemiss.h"

static unsigned char ring_mem[ASYS_RING_BYTES(8)] __attribute__((aligned(4096)));

int main(void)
{
	struct asys_ring *ring = (struct asys_ring *)ring_mem;
	struct asys_input req;
	unsigned long args[3];
	char buf[8] = "";
	int fds[2], round;
	long n;

	asys_ring_setup(NULL, 0);
	if (cachemiss_set(1) || pipe(fds) < 0 || asys_ring_setup(ring, 8)) {
		perror("kernel.asys_cachemiss=1, pipe, asys_ring_setup");
		return 1;
	}
	printf("lab8-ring: ring at %p, 8 entries\n", (void *)ring);
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 5;
	for (round = 0; round < 2; round++) {
		asys_req(&req, __NR_read, 8 + round, args, 3);
		n = asys_submit(&req, 1);
		if (n != 1 || write(fds[1], "hello", 5) != 5)
			return 1;
		n = asys_ring_wait(1);
		printf("lab8-ring: asys_ring_wait returned %ld: entry %u: return_code %ld, cookie %lu\n",
		       n, ring->head, asys_ring_entry(ring, 0)->return_code,
		       asys_ring_entry(ring, 0)->cookie);
		if (n != 1 || asys_ring_entry(ring, 0)->cookie != 8ul + round)
			return 1;
		asys_ring_consume(ring, 1);
	}
	return 0;
}
