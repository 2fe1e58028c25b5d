/*
 * Lab 5, way 3d: a blocking round trip through io_uring, with raw system calls
 * (io_uring_setup, io_uring_enter, the rings mmap()ed), as liburing would do it: put a
 * read of one byte on an empty pipe in the submission ring and io_uring_enter() it,
 * write the byte, then look in the completion ring, and io_uring_enter() to wait only
 * when the completion is not there yet.
 *
 * Two ways, the same read:
 *  - plain: io_uring tries the read without blocking, gets -EAGAIN, arms a poll on the
 *    pipe and returns. The write's wake-up queues task work on the submitter, which
 *    finishes the read on its way back to user space. No thread ever blocks in read().
 *  - IOSQE_ASYNC: the read is punted to an io-wq worker thread at once (woken here;
 *    sched_yield() lets it run, see bench.h). On 6.1 that worker, too, tries the read
 *    without blocking and arms the poll for a pollable file such as a pipe
 *    (io_wq_submit_work()); the cost above the plain way is the hand-off to the worker.
 *
 * What io_uring's tracepoints show on this 6.1 kernel (iouring_trace.c): on a pipe the
 * poll fires once, from pipe_write(), but a 6.1 pipe has no FMODE_NOWAIT, so io_read()
 * cannot retry the read without blocking and hands it to an io-wq worker thread every
 * time ("just async punt"). Both pipe figures pay a worker wake-up and its switches. The
 * control iouring_eventfd_roundtrip does the same round trip on an eventfd (read 8
 * bytes, write a count of 1), which has FMODE_NOWAIT: the task work completes the read,
 * no worker involved. 6.12 sets FMODE_NOWAIT on pipes. iouring_socketpair_roundtrip reads
 * an AF_UNIX stream socket, which has FMODE_NOWAIT in 6.1: the eventfd's path, on the
 * file a server waits on.
 */
#define _GNU_SOURCE	/* CPU_SET (bench.h) */
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "bench.h"

struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int uring_setup(struct uring *r, unsigned int entries)
{
	struct io_uring_params p;
	size_t sq_size, cq_size;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	r->fd = syscall(SYS_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -1;
	sq_size = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP && cq_size > sq_size)
		sq_size = cq_size;
	sq = mmap(NULL, sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -1;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
			  IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return -1;
	}
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* Queue one read(fd, buf, len) and io_uring_enter() it. */
static void uring_submit_read(struct uring *r, int fd, char *buf, unsigned int len,
			      unsigned char flags, unsigned long long cookie)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = len;
	sqe->off = (unsigned long long)-1;	/* a pipe or eventfd: no position */
	sqe->flags = flags;
	sqe->user_data = cookie;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, r->fd, 1, 0, 0, NULL, 0) != 1)
		bench_die("io_uring_enter(submit)");
}

/* 1 when a completion is waiting in the ring. */
static int uring_ready(struct uring *r)
{
	return *r->cq_head != __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
}

/* Wait for (only if not there yet) and take one completion; its result. */
static int uring_reap(struct uring *r, unsigned long long cookie)
{
	unsigned int head = *r->cq_head;
	struct io_uring_cqe *cqe;
	int res;

	if (!uring_ready(r) &&
	    syscall(SYS_io_uring_enter, r->fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		bench_die("io_uring_enter(wait)");
	cqe = &r->cqes[head & *r->cq_mask];
	if (cqe->user_data != cookie)
		bench_die("completion for %llu, expected %llu", cqe->user_data, cookie);
	res = cqe->res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

static struct uring ur = { .fd = -1 };
static int ur_rfd, ur_wfd, ur_len;	/* what the loop reads from, writes to, how much */
static unsigned char ur_flags;
static int ur_verify;
static long ur_pending;

static uint64_t uring_loop(long n)
{
	static char buf[8];
	unsigned long long c, one = 1;	/* 1 byte (pipe, socket), or a count of 1 (eventfd) */
	uint64_t t0;
	long i;

	t0 = bench_now();
	for (i = 0; i < n; i++) {
		c = (unsigned long long)i;
		uring_submit_read(&ur, ur_rfd, buf, ur_len, ur_flags, c);
		if (ur_flags & IOSQE_ASYNC)
			sched_yield();	/* the io-wq worker runs until the read waits */
		if (ur_verify && !uring_ready(&ur))
			ur_pending++;	/* the read is waiting for the write */
		if (write(ur_wfd, &one, ur_len) != ur_len)
			bench_die("write");
		if (uring_reap(&ur, c) != ur_len)
			bench_die("the read returned something else than %d bytes", ur_len);
	}
	return bench_now() - t0;
}

/* The round trip on one kind of file (bench.h: BENCH_PIPE, BENCH_EVENTFD, BENCH_SOCKET). */
static double bench_iouring(long n, unsigned char flags, enum bench_file kind)
{
	if (ur.fd < 0 && uring_setup(&ur, 4))
		bench_die("io_uring_setup (a kernel without CONFIG_IO_URING?)");
	ur_len = bench_file_open(kind, &ur_rfd, &ur_wfd);
	ur_flags = flags;
	ur_verify = 1;
	ur_pending = 0;
	uring_loop(10);
	ur_verify = 0;
	if (ur_pending != 10)
		bench_die("the read was pending in %ld of 10 calls, not all", ur_pending);
	return bench_per_op(uring_loop, n);
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
	long n = bench_iters(argc, argv, 5000);

	bench_rt();
	bench_report("iouring_async_roundtrip", bench_iouring(n, IOSQE_ASYNC, BENCH_PIPE), n,
		     "IOSQE_ASYNC pipe read (io-wq) + yield + write + reap");
	bench_report("iouring_roundtrip", bench_iouring(n, 0, BENCH_PIPE), n,
		     "pipe read (poll armed at submit) + write + reap");
	bench_report("iouring_eventfd_roundtrip", bench_iouring(n, 0, BENCH_EVENTFD), n,
		     "control: eventfd read (poll armed at submit) + write + reap");
	bench_report("iouring_socketpair_roundtrip", bench_iouring(n, 0, BENCH_SOCKET), n,
		     "AF_UNIX socket read (poll armed at submit) + write + reap");
	return 0;
}
#endif
