/*
 * asys.h: the user-space side of patch 4, asynchronous system calls on fibrils.
 *
 * The ABI and nothing else: the two system calls, their structs and a request filler,
 * for any program (the demo, the benchmarks, a reproducer). It follows the ABI
 * reference (docs/asys-abi.md) line by line; read it from top to bottom and you know
 * the ABI. The tests' helpers (watchdogs, timed waits, errno names) are asys_test.h.
 *
 * The idea in one paragraph: you describe system calls (number, arguments, a cookie of
 * your choice) in an array of struct asys_input and hand it to asys_submit(). The kernel
 * starts each call on its own fibril, a second kernel stack inside your task. A call
 * that does not block runs to the end at once; a call that blocks (a read on an empty
 * pipe, a sleep) stays pending in the kernel while asys_submit() returns and your program
 * goes on. Every started call produces exactly one completion, {return_code, cookie},
 * which you collect with asys_await_completion().
 *
 * Everything here is i386: int, long, unsigned long and pointers are all 32 bits.
 */
#ifndef ASYS_H
#define ASYS_H

#include <sys/syscall.h>
#include <unistd.h>

/*
 * The two new system calls. i386 6.1 ends at 450 (set_mempolicy_home_node), so the lab
 * appends 451 and 452 to arch/x86/entry/syscalls/syscall_32.tbl. (Upstream later gave
 * these numbers to cachestat and fchmodat2: irrelevant for a 6.1 lab kernel.)
 */
#ifndef __NR_asys_submit
#define __NR_asys_submit		451
#endif
#ifndef __NR_asys_await_completion
#define __NR_asys_await_completion	452
#endif

/*
 * One request: "run system call syscall_nr with these nr_args arguments; tell me it
 * finished with this cookie". args points at nr_args longs (at most 6, the i386
 * registers ebx, ecx, edx, esi, edi, ebp). The kernel copies args during asys_submit(),
 * so the array may be reused once asys_submit() returned; what the arguments point to
 * (a read's buffer, a timespec) must stay valid until the call's completion arrives.
 * 16 bytes on i386 (include/uapi/linux/asys.h in the kernel).
 */
struct asys_input {
	int		syscall_nr;
	unsigned long	cookie;
	unsigned long	nr_args;
	unsigned long	*args;
};

/*
 * One completion: return_code is exactly what the system call returned in the kernel:
 * a value >= 0, or a negative errno (-EINTR, -EBADF...), not -1 with errno set. cookie
 * is the request's cookie, unchanged. 8 bytes on i386.
 */
struct asys_completion {
	long		return_code;
	unsigned long	cookie;
};

#ifdef __i386__
_Static_assert(sizeof(struct asys_input) == 16, "struct asys_input is 16 bytes on i386");
_Static_assert(sizeof(struct asys_completion) == 8, "struct asys_completion is 8 bytes on i386");
#endif

#define ASYS_MAX_ARGS 6		/* nr_args > 6: EINVAL */

/*
 * asys_submit(requests, nr_requests): start every request, in order, each on its own
 * fibril, and return as soon as all are started (blocked ones stay pending).
 *
 *   > 0  the number of requests started. Fewer than nr_requests means request number
 *        "return value" was rejected and nothing after it was started; submit the rest
 *        again to learn why (it is then the first, so you get -1 and errno).
 *   0    nr_requests was 0.
 *   -1   the FIRST request was rejected, errno says why:
 *          EFAULT  requests, or this request's args, cannot be read
 *          ENOSYS  syscall_nr < 0, past the i386 table, or a hole in it (no entry
 *                  point). A call this kernel was built without (acct, bpf...) is
 *                  started and completes with -ENOSYS, as it returns synchronously
 *          EINVAL  nr_args > 6, or a call that cannot run on a fibril: fork, vfork,
 *                  clone, clone3, execve, execveat, exit, exit_group, sigreturn,
 *                  rt_sigreturn, asys_submit, asys_await_completion (and the
 *                  documented extras of docs/asys-abi.md: set*id, the signal-mask
 *                  sleeps, ...)
 *          EAGAIN  the task already has kernel.asys_max_pending calls pending or
 *                  uncollected (/proc/sys/kernel/asys_max_pending)
 *          ENOMEM  no kernel memory for the call
 *        On a kernel without asys (any kernel but the solved Lab 4 one): ENOSYS.
 */
static inline long asys_submit(struct asys_input *requests, unsigned long nr_requests)
{
	return syscall(__NR_asys_submit, requests, nr_requests);
}

/*
 * asys_await_completion(comp): wait for one completion of the calling thread.
 *
 *   1   a completion was copied to *comp and removed from the queue.
 *   0   at once, when this thread has no call pending and no completion waiting:
 *       there is nothing to wait for (the 2007 seed hung here).
 *   -1  errno EINTR: a caught signal interrupted the wait (with SA_RESTART the kernel
 *       restarts the wait instead). errno EFAULT: *comp cannot be written; the
 *       completion stays queued, nothing is lost: call again with a good pointer.
 *
 * Completions belong to the thread that submitted: another thread of the process never
 * sees them. A fork()ed child starts with no pending calls and no completions. When a
 * task exits or execve()s with calls pending, the kernel interrupts them (interruptible
 * sleeps end with EINTR) or waits for them, and frees everything.
 */
static inline long asys_await_completion(struct asys_completion *comp)
{
	return syscall(__NR_asys_await_completion, comp);
}

/* asys_req(): fill one request. args may be NULL when nr_args is 0. */
static inline void asys_req(struct asys_input *r, int nr, unsigned long cookie,
			    unsigned long *args, unsigned long nr_args)
{
	r->syscall_nr = nr;
	r->cookie = cookie;
	r->nr_args = nr_args;
	r->args = args;
}

/*
 * Lab 8: a completion ring in your own memory (patch 8; i386 system calls 453, 454).
 *
 * asys_ring_setup(ring, entries) registers ring for the calling thread: from then on the
 * kernel writes each completion of this thread into ring->cqes[tail % entries] and then
 * moves ring->tail on, and you read the entries from ring->head up to tail and move head
 * on yourself: a call that did not block costs no asys_await_completion(). The memory
 * must be 8-byte aligned, writable, ASYS_RING_BYTES(entries) long, and stays pinned until
 * the ring is unregistered (asys_ring_setup(NULL, 0)), or the thread execs or exits.
 *
 *   0   registered (the kernel wrote head = tail = 0, mask = entries - 1, flags = 0)
 *   -1  errno EINVAL: entries is 0, not a power of two, or above ASYS_RING_MAX_ENTRIES;
 *       ring is not 8-byte aligned
 *       errno EBUSY: a ring is registered already, or calls are pending or completions
 *       queued (asys_ring_setup(NULL, 0) gives EBUSY while calls run)
 *       errno EFAULT: the memory cannot be written (not mapped, read-only)
 *       errno EOPNOTSUPP: a shared mapping of a file other than shmem
 *       errno ENOMEM: past RLIMIT_MEMLOCK without CAP_IPC_LOCK (the pages count in VmPin)
 *
 * With a ring, asys_submit() gives EAGAIN for a call that could find the ring full when it
 * ends (running calls plus unread entries reach its size): no completion is ever lost.
 * asys_await_completion() still works: it reads the ring for you.
 *
 * asys_ring_wait(min) sleeps until the ring holds at least min unread entries, or until no
 * running call can bring more, and returns how many it holds. EINVAL without a ring or for
 * min above its size; EINTR for a signal; EOVERFLOW as soon as a completion waits in the
 * kernel queue because you moved head back (collect it with asys_await_completion()).
 *
 * The two rules of order (io_uring's): the kernel writes an entry, then publishes it with a
 * release store of tail; you acquire tail before you read entries, and release head after.
 */
#ifndef __NR_asys_ring_setup
#define __NR_asys_ring_setup		453
#endif
#ifndef __NR_asys_ring_wait
#define __NR_asys_ring_wait		454
#endif

struct asys_ring {
	unsigned int		head;	/* next entry to read: yours */
	unsigned int		tail;	/* next entry the kernel fills: the kernel's */
	unsigned int		mask;	/* entries - 1 */
	unsigned int		flags;	/* 0 */
	struct asys_completion	cqes[];
};

#define ASYS_RING_MAX_ENTRIES	4096
#define ASYS_RING_BYTES(entries) \
	(sizeof(struct asys_ring) + (entries) * sizeof(struct asys_completion))

static inline long asys_ring_setup(struct asys_ring *ring, unsigned int entries)
{
	return syscall(__NR_asys_ring_setup, ring, entries);
}

static inline long asys_ring_wait(unsigned int min_complete)
{
	return syscall(__NR_asys_ring_wait, min_complete);
}

/* asys_ring_ready(ring): the entries published and not read yet (acquires tail). */
static inline unsigned int asys_ring_ready(struct asys_ring *ring)
{
	return __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) - ring->head;
}

/* asys_ring_entry(ring, i): the i-th unread entry, 0 the oldest. */
static inline struct asys_completion *asys_ring_entry(struct asys_ring *ring, unsigned int i)
{
	return &ring->cqes[(ring->head + i) & ring->mask];
}

/* asys_ring_consume(ring, n): n entries read; the kernel may reuse them (releases head). */
static inline void asys_ring_consume(struct asys_ring *ring, unsigned int n)
{
	__atomic_store_n(&ring->head, ring->head + n, __ATOMIC_RELEASE);
}

#endif
