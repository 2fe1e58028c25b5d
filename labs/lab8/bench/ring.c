/*
 * Lab 8: what the completion ring buys, in cachemiss mode (kernel.asys_cachemiss=1), in
 * guest instructions per call under -icount, beside io_uring doing the same:
 *   asys_inline_ring_batchB      B getpid()s in one asys_submit(), run on the submitter's
 *                                stack; their completions read from the ring, no await.
 *                                B = 1, 8, 32. Compare direct_syscall (Lab 5).
 *   asys_eventfd_roundtrip_ring  read() of an empty eventfd (blocks: the user context
 *                                moves), write, asys_ring_wait() only if the entry is not
 *                                there yet. Compare iouring_eventfd_roundtrip (Lab 5).
 *   asys_pipe_roundtrip_ring     the same on a pipe. Compare asys_roundtrip_cachemiss.
 *   iouring_nop_batchB           B IORING_OP_NOPs in one io_uring_enter(), their
 *                                completions reaped from io_uring's ring. B = 1, 32.
 * The mode the kernel had is restored at the end.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#define BENCH_NO_MAIN
#include "../../lab5/bench/iouring.c"
#undef BENCH_NO_MAIN
#include "asys_test.h"
#include "cachemiss.h"

#define RING_ENTRIES	64
static unsigned char ring_mem[ASYS_RING_BYTES(RING_ENTRIES)] __attribute__((aligned(4096)));
static struct asys_ring *ring = (struct asys_ring *)ring_mem;
static struct asys_input batch[32];
static long batch_size;
static pid_t me;

/* n getpid()s, batch_size at a time, each batch's completions read from the ring */
static uint64_t inline_ring_loop(long n)
{
	uint64_t t0 = bench_now();
	long i, b;

	for (i = 0; i < n; i += batch_size) {
		if (asys_submit(batch, batch_size) != batch_size)
			bench_die("asys_submit of %ld getpid()s", batch_size);
		if (asys_ring_ready(ring) != (unsigned int)batch_size)
			bench_die("%u entries in the ring after a batch of %ld", asys_ring_ready(ring),
				  batch_size);
		for (b = 0; b < batch_size; b++)
			if (asys_ring_entry(ring, b)->return_code != me)
				bench_die("entry %ld: %ld", b, asys_ring_entry(ring, b)->return_code);
		asys_ring_consume(ring, batch_size);
	}
	return bench_now() - t0;
}

static double bench_inline_ring(long n, long b)
{
	long i;

	batch_size = b;
	for (i = 0; i < b; i++)
		asys_req(&batch[i], SYS_getpid, i, NULL, 0);
	return bench_per_op(inline_ring_loop, n - n % b);
}

static int rt_rfd, rt_wfd, rt_len;

/* n blocking round trips: the completion is read from the ring */
static uint64_t roundtrip_ring_loop(long n)
{
	static unsigned long long buf;
	unsigned long long one = 1;
	unsigned long args[3] = { rt_rfd, (unsigned long)&buf, rt_len };
	uint64_t t0 = bench_now();
	long i;
	int err;

	for (i = 0; i < n; i++) {
		if (asys_submit1(SYS_read, i, args, 3, &err) != 1)
			bench_die("asys_submit(read)");
		if (write(rt_wfd, &one, rt_len) != rt_len)
			bench_die("write");
		if (!asys_ring_ready(ring) && asys_ring_wait(1) < 1)
			bench_die("asys_ring_wait(1)");
		if (asys_ring_entry(ring, 0)->return_code != rt_len ||
		    asys_ring_entry(ring, 0)->cookie != (unsigned long)i)
			bench_die("entry: %ld, cookie %lu", asys_ring_entry(ring, 0)->return_code,
				  asys_ring_entry(ring, 0)->cookie);
		asys_ring_consume(ring, 1);
	}
	return bench_now() - t0;
}

static double bench_roundtrip_ring(long n, enum bench_file kind)
{
	long m0 = cachemiss_moves();
	double v;

	rt_len = bench_file_open(kind, &rt_rfd, &rt_wfd);
	v = bench_per_op(roundtrip_ring_loop, n);
	/* the loop proves nothing unless each read really blocked and moved */
	if (cachemiss_moves() - m0 < n)
		bench_die("%ld moves for at least %ld blocking reads", cachemiss_moves() - m0, n);
	return v;
}

/* n IORING_OP_NOPs, batch_size per io_uring_enter(), reaped from the completion ring */
static uint64_t nop_loop(long n)
{
	uint64_t t0 = bench_now();
	long i, b;

	for (i = 0; i < n; i += batch_size) {
		unsigned int tail = *ur.sq_tail, head;

		for (b = 0; b < batch_size; b++) {
			unsigned int idx = (tail + b) & *ur.sq_mask;
			struct io_uring_sqe *sqe = &ur.sqes[idx];

			memset(sqe, 0, sizeof(*sqe));
			sqe->opcode = IORING_OP_NOP;
			sqe->user_data = i + b;
			ur.sq_array[idx] = idx;
		}
		__atomic_store_n(ur.sq_tail, tail + batch_size, __ATOMIC_RELEASE);
		if (syscall(SYS_io_uring_enter, ur.fd, batch_size, 0, 0, NULL, 0) != batch_size)
			bench_die("io_uring_enter(%ld NOPs)", batch_size);
		head = *ur.cq_head;
		if (__atomic_load_n(ur.cq_tail, __ATOMIC_ACQUIRE) - head != (unsigned int)batch_size)
			bench_die("%u NOP completions, not %ld",
				  __atomic_load_n(ur.cq_tail, __ATOMIC_ACQUIRE) - head, batch_size);
		for (b = 0; b < batch_size; b++)
			if (ur.cqes[(head + b) & *ur.cq_mask].res != 0)
				bench_die("a NOP returned %d", ur.cqes[(head + b) & *ur.cq_mask].res);
		__atomic_store_n(ur.cq_head, head + batch_size, __ATOMIC_RELEASE);
	}
	return bench_now() - t0;
}

static double bench_iouring_nop(long n, long b)
{
	if (ur.fd < 0 && uring_setup(&ur, 32))
		bench_die("io_uring_setup (a kernel without CONFIG_IO_URING?)");
	batch_size = b;
	return bench_per_op(nop_loop, n - n % b);
}

int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 3200);

	(void)bench_iouring;	/* Lab 5's round trips: only the ring setup is used here */
	bench_rt();
	if (!asys_present())
		bench_die("no asys on this kernel");
	if (cachemiss_on())
		bench_die("this kernel has no kernel.asys_cachemiss (Lab 7's patch)");
	asys_ring_setup(NULL, 0);
	if (asys_ring_setup(ring, RING_ENTRIES))
		bench_die("asys_ring_setup (Lab 8's patch)");
	me = getpid();
	bench_report("asys_inline_ring_batch1", bench_inline_ring(n, 1), n,
		     "asys_submit(1 getpid), completion read from the ring");
	bench_report("asys_inline_ring_batch8", bench_inline_ring(n, 8), n,
		     "asys_submit(8 getpid), per call");
	bench_report("asys_inline_ring_batch32", bench_inline_ring(n, 32), n,
		     "asys_submit(32 getpid), per call");
	bench_report("asys_eventfd_roundtrip_ring", bench_roundtrip_ring(n, BENCH_EVENTFD), n,
		     "asys read of an eventfd (blocks, moves) + write + the ring");
	bench_report("asys_pipe_roundtrip_ring", bench_roundtrip_ring(n, BENCH_PIPE), n,
		     "asys read of a pipe (blocks, moves) + write + the ring");
	bench_report("iouring_nop_batch1", bench_iouring_nop(n, 1), n,
		     "io_uring_enter(1 NOP), completion reaped from its ring");
	bench_report("iouring_nop_batch32", bench_iouring_nop(n, 32), n,
		     "io_uring_enter(32 NOPs), per call");
	return 0;
}
