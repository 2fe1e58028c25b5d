/*
 * ring_abi: asys_ring_setup() and the ring's rules, as asys.h states them.
 *
 *   1. setup refuses what it must: entries 0, 3, 8192 and a ring that is not 8-byte
 *      aligned with EINVAL; read-only and unmapped memory with EFAULT; a shared mapping
 *      of a file with EOPNOTSUPP (shmem is accepted); a second ring, and a ring while a
 *      call is pending, with EBUSY. It writes head = tail = 0, mask, flags. The pinned
 *      page counts in VmPin, and without CAP_IPC_LOCK against RLIMIT_MEMLOCK (ENOMEM).
 *   2. the oracle: a batch of calls that do not block is complete when asys_submit()
 *      returns; each entry, in order, holds the cookie and what the same call made
 *      synchronously returns (getpid, getppid, a write to /dev/null, close and read of a
 *      bad fd, uname of an unmapped buffer).
 *   3. no completion is lost: with a ring of 4, a fifth call is refused with EAGAIN while
 *      4 entries are unread, and while 4 calls run; reading two makes room for two.
 *   4. the kernel's tail is its own: garbage the thread writes into ring->tail does not
 *      move where the next entry goes, and the kernel writes tail back.
 *   5. a thread that breaks the protocol (head moved back while a call runs) loses
 *      nothing: the completion waits in the kernel queue, asys_ring_wait() says
 *      EOVERFLOW, and asys_await_completion() hands it out. asys_ring_wait(1) says
 *      EOVERFLOW while another call still runs, not once that call has ended.
 *   6. asys_await_completion() reads the ring for the thread, in order, then returns 0;
 *      with a bad pointer it gives EFAULT and the entry stays unread.
 *   7. unregistering goes back to the queue; a forked child and an exec'd image start
 *      with no ring.
 * Contract: the system calls 453 (asys_ring_setup) and 454 (asys_ring_wait) and the
 *   struct asys_ring layout of labs/include/asys.h.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

static int ok;
static unsigned char mem[2][ASYS_RING_BYTES(64)] __attribute__((aligned(4096)));

static long errno_of(long r)
{
	return r == -1 ? -errno : r;
}

/*
 * A shared mapping of a file goes back to its file system, which may write back or clean
 * a page while the kernel writes into it: refused with EOPNOTSUPP, as io_uring refuses
 * it. ramfs stands for such a file system here (the guest has no disk). shmem, a shared
 * anonymous mapping, is memory the thread owns: accepted.
 */
static void file_backed(void)
{
	static const char dir[] = "/ring-ramfs";
	void *shared_file = MAP_FAILED, *shared_anon;
	int fd = -1;
	long got;

	ok = (mkdir(dir, 0700) == 0 || errno == EEXIST) && mount("none", dir, "ramfs", 0, NULL) == 0;
	REQUIRE(ok, "mount ramfs on %s (errno %d)", dir, errno);
	fd = open("/ring-ramfs/ring", O_RDWR | O_CREAT, 0600);
	if (fd >= 0 && ftruncate(fd, 4096) == 0)
		shared_file = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	REQUIRE(shared_file != MAP_FAILED, "a shared mapping of a ramfs file (errno %d)", errno);
	got = errno_of(asys_ring_setup(shared_file, 4));
	CHECK(got == -EOPNOTSUPP, "a ring in a shared mapping of a file gives EOPNOTSUPP (got %ld)",
	      got);
	if (got == 0)
		asys_ring_setup(NULL, 0);
	munmap(shared_file, 4096);
	close(fd);
	umount(dir);
	rmdir(dir);

	shared_anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	got = errno_of(asys_ring_setup(shared_anon, 4));
	CHECK(got == 0, "a ring in shared anonymous memory (shmem) is accepted (got %ld)", got);
	asys_ring_setup(NULL, 0);
	munmap(shared_anon, 4096);
}

/* vm_pin_kb(): this process's VmPin in kB (its mm's pinned pages), or -1 */
static long vm_pin_kb(void)
{
	char buf[64];

	return status_field(0, "VmPin:", buf, sizeof(buf)) ? strtol(buf, NULL, 10) : -1;
}

/*
 * The ring's pages are pinned, memory the thread holds out of reclaim: charged to its
 * VmPin while registered, and without CAP_IPC_LOCK kept within RLIMIT_MEMLOCK (ENOMEM),
 * as io_uring charges its rings.
 */
static void charged(void)
{
	struct asys_ring *r = (struct asys_ring *)mem[1];
	long before = vm_pin_kb(), during, after, got;
	int code;
	pid_t pid;

	got = errno_of(asys_ring_setup(r, 4));
	during = vm_pin_kb();
	asys_ring_setup(NULL, 0);
	after = vm_pin_kb();
	CHECK(got == 0 && before >= 0 && during - before == 4 && after == before,
	      "a ring of one page is charged to VmPin while registered (%ld kB, then %ld, then "
	      "%ld; setup gave %ld)", before, during, after, got);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit none = { 0, 0 };

		/* nobody, with no memory to lock: no CAP_IPC_LOCK either */
		if (setrlimit(RLIMIT_MEMLOCK, &none) || setuid(65534))
			_exit(3);
		got = errno_of(asys_ring_setup(r, 4));
		_exit(got == -ENOMEM ? 0 : got == 0 ? 1 : 2);
	}
	code = asys_child_exit(pid, 10000);
	CHECK(code == 0, "without CAP_IPC_LOCK, a ring past RLIMIT_MEMLOCK gives ENOMEM (exit %d; "
	      "1: it was registered, 2: another error, 3: the child could not drop its rights)",
	      code);
}

static void setup_refuses(void)
{
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const unsigned int bad_entries[] = { 0, 3, 8192 };
	struct asys_ring *r = (struct asys_ring *)mem[0];
	unsigned int i;
	long got;

	asys_watchdog_step = "1: setup";
	for (i = 0; i < 3; i++) {
		got = errno_of(asys_ring_setup(r, bad_entries[i]));
		CHECK(got == -EINVAL, "asys_ring_setup(ring, %u) gives EINVAL (got %ld)",
		      bad_entries[i], got);
	}
	got = errno_of(asys_ring_setup((struct asys_ring *)(mem[0] + 4), 4));
	CHECK(got == -EINVAL, "a ring 4 bytes off 8-byte alignment gives EINVAL (got %ld)", got);
	got = errno_of(asys_ring_setup(ro, 4));
	CHECK(got == -EFAULT, "a read-only ring gives EFAULT (got %ld)", got);
	got = errno_of(asys_ring_setup((struct asys_ring *)0x1000, 4));
	CHECK(got == -EFAULT, "an unmapped ring gives EFAULT (got %ld)", got);
	file_backed();
	charged();

	memset(mem[0], 0xa5, sizeof(mem[0]));
	got = errno_of(asys_ring_setup(r, 64));
	CHECK(got == 0, "asys_ring_setup(ring, 64) returns 0 (got %ld)", got);
	CHECK(r->head == 0 && r->tail == 0 && r->mask == 63 && r->flags == 0,
	      "setup writes head 0, tail 0, mask 63, flags 0 (got %u, %u, %u, %u)", r->head,
	      r->tail, r->mask, r->flags);
	got = errno_of(asys_ring_setup((struct asys_ring *)mem[1], 64));
	CHECK(got == -EBUSY, "a second ring gives EBUSY (got %ld)", got);
	got = errno_of(asys_ring_wait(65));
	CHECK(got == -EINVAL, "asys_ring_wait(65) on a ring of 64 gives EINVAL (got %ld)", got);
	munmap(ro, 4096);
}

/* 2: the synchronous call is the oracle for every entry */
static void entries_as_sync(struct asys_ring *r)
{
	static char buf[8];
	unsigned long a_null[3], a_close[1] = { (unsigned long)-1 }, a_read[3], a_uname[1];
	struct asys_input q[6];
	long want[6], got;
	int devnull = open("/dev/null", O_WRONLY), i;
	unsigned int start = r->tail;

	asys_watchdog_step = "2: entries as the synchronous calls";
	a_null[0] = devnull, a_null[1] = (unsigned long)buf, a_null[2] = 5;
	a_read[0] = 1000, a_read[1] = (unsigned long)buf, a_read[2] = 1;
	a_uname[0] = 0x1000;
	want[0] = getpid();
	want[1] = getppid();
	want[2] = errno_of(write(devnull, buf, 5));
	want[3] = errno_of(close(-1));
	want[4] = errno_of(read(1000, buf, 1));
	want[5] = errno_of(syscall(SYS_uname, 0x1000));
	asys_req(&q[0], SYS_getpid, 101, asys_noargs, 0);
	asys_req(&q[1], SYS_getppid, 102, asys_noargs, 0);
	asys_req(&q[2], SYS_write, 103, a_null, 3);
	asys_req(&q[3], SYS_close, 104, a_close, 1);
	asys_req(&q[4], SYS_read, 105, a_read, 3);
	asys_req(&q[5], SYS_uname, 106, a_uname, 1);
	got = asys_submit(q, 6);
	CHECK(got == 6, "a batch of 6 calls that do not block starts all 6 (got %ld)", got);
	got = asys_ring_ready(r);
	CHECK(got == 6, "their 6 entries are in the ring when asys_submit() returns (got %ld)",
	      got);
	for (i = 0; i < 6 && i < got; i++) {
		struct asys_completion *c = asys_ring_entry(r, i);

		CHECK(c->cookie == 101ul + i && c->return_code == want[i],
		      "entry %u: cookie %d, return_code %ld as synchronously (got cookie %lu, %ld)",
		      start + i, 101 + i, want[i], c->cookie, c->return_code);
	}
	asys_ring_consume(r, got > 0 ? got : 0);
	close(devnull);
}

static long submit_getpids(int n, unsigned long cookie)
{
	struct asys_input q[8];
	int i;

	for (i = 0; i < n; i++)
		asys_req(&q[i], SYS_getpid, cookie + i, asys_noargs, 0);
	return errno_of(asys_submit(q, n));
}

/* 3: a full ring refuses at submit; 4: the kernel's tail; 5: head moved back */
static void small_ring(void)
{
	struct asys_ring *r = (struct asys_ring *)mem[1];
	static char byte[4];
	unsigned long rargs[4][3];
	struct asys_completion c = { 0, 0 };
	struct asys_input q[4];
	int fds[2], late[2], i;
	unsigned long late_args[3] = { 0, (unsigned long)&byte[1], 1 };
	unsigned int unread;
	pid_t writer;
	long got;

	asys_watchdog_step = "3: a ring of 4";
	ok = asys_ring_setup(NULL, 0) == 0 && asys_ring_setup(r, 4) == 0;
	REQUIRE(ok, "a ring of 4 replaces the ring of 64 (errno %d)", errno);
	got = submit_getpids(4, 1);
	CHECK(got == 4, "4 getpid()s fill the ring (got %ld)", got);
	got = submit_getpids(1, 5);
	CHECK(got == -EAGAIN, "a fifth call, with 4 entries unread, gives EAGAIN (got %ld)", got);
	asys_ring_consume(r, 2);
	got = submit_getpids(3, 5);
	CHECK(got == 2, "two read make room for 2 of 3 (got %ld)", got);
	asys_ring_consume(r, 4);

	ok = pipe(fds) == 0;
	REQUIRE(ok, "pipe()");
	for (i = 0; i < 4; i++) {
		rargs[i][0] = fds[0], rargs[i][1] = (unsigned long)&byte[i], rargs[i][2] = 1;
		asys_req(&q[i], SYS_read, 20 + i, rargs[i], 3);
	}
	got = errno_of(asys_submit(q, 4));
	CHECK(got == 4, "4 reads of an empty pipe start and block (got %ld)", got);
	got = submit_getpids(1, 30);
	CHECK(got == -EAGAIN, "a fifth call, with 4 calls running, gives EAGAIN (got %ld)", got);
	got = errno_of(asys_ring_setup(NULL, 0));
	CHECK(got == -EBUSY, "unregistering while calls run gives EBUSY (got %ld)", got);
	ok = write(fds[1], "abcd", 4) == 4;
	REQUIRE(ok, "write 4 bytes");
	got = errno_of(asys_ring_wait(4));
	CHECK(got == 4, "asys_ring_wait(4) returns once the 4 reads are in the ring (got %ld)",
	      got);
	asys_ring_consume(r, 4);

	asys_watchdog_step = "4: the kernel's own tail";
	r->tail = 12345;
	got = submit_getpids(1, 40);
	CHECK(got == 1 && r->tail == r->head + 1 && asys_ring_entry(r, 0)->cookie == 40,
	      "garbage in ring->tail does not move the next entry: tail %u, head %u, cookie %lu "
	      "(want tail head + 1, cookie 40)", r->tail, r->head, asys_ring_entry(r, 0)->cookie);
	asys_ring_consume(r, 1);

	asys_watchdog_step = "5: head moved back while a call runs";
	ok = pipe(late) == 0;
	REQUIRE(ok, "pipe()");
	late_args[0] = late[0];
	asys_req(&q[0], SYS_read, 50, rargs[0], 3);
	asys_req(&q[1], SYS_read, 51, late_args, 3);
	got = errno_of(asys_submit(q, 2));
	CHECK(got == 2, "two reads of empty pipes start (got %ld)", got);
	r->head -= 4;	/* claims 4 entries unread: the ring is full */
	ok = write(fds[1], "e", 1) == 1;
	REQUIRE(ok, "write 1 byte");
	/*
	 * The woken read runs when this thread sleeps; asys_ring_wait() cannot be what
	 * sleeps here, since the ring looks full. Sleep until the read has ended (2 s at most).
	 */
	for (i = 0; i < 200 && (got = errno_of(asys_ring_wait(0))) != -EOVERFLOW; i++)
		usleep(10000);
	CHECK(got == -EOVERFLOW, "asys_ring_wait() says EOVERFLOW: a completion waits in the "
	      "kernel queue (got %ld)", got);
	r->head += 4;	/* the ring is whole again, and empty */
	/*
	 * A waiter for entries the ring does not hold is told of the queued completion at
	 * once, not when the call still running ends: that one ends only when the child
	 * writes, 3 s from now, or when this thread does, after the check.
	 */
	writer = fork();
	if (writer == 0) {
		sleep(3);
		_exit(write(late[1], "g", 1) == 1 ? 0 : 1);
	}
	got = errno_of(asys_ring_wait(1));
	unread = asys_ring_ready(r);
	CHECK(got == -EOVERFLOW && unread == 0,
	      "asys_ring_wait(1), with a completion queued and a call still running, says "
	      "EOVERFLOW before that call ends (got %ld; the ring holds %u, want 0)", got, unread);
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	got = errno_of(asys_await_completion(&c));
	CHECK(got == 1 && c.cookie == 50 && c.return_code == 1,
	      "asys_await_completion() hands it out: cookie 50, return_code 1 (got %ld, %lu, %ld)",
	      got, c.cookie, c.return_code);
	ok = write(late[1], "f", 1) == 1;
	REQUIRE(ok, "write 1 byte");
	got = errno_of(asys_ring_wait(1));
	CHECK(got == 1 && asys_ring_entry(r, 0)->cookie == 51 && asys_ring_entry(r, 0)->return_code == 1,
	      "the other read then completes into the ring (got %ld, cookie %lu, return_code %ld)",
	      got, asys_ring_entry(r, 0)->cookie, asys_ring_entry(r, 0)->return_code);
	asys_ring_consume(r, asys_ring_ready(r));
	close(fds[0]);
	close(fds[1]);
	close(late[0]);
	close(late[1]);
}

/* 6: await reads the ring */
static void await_reads_ring(void)
{
	struct asys_ring *r = (struct asys_ring *)mem[1];
	struct asys_completion c = { 0, 0 };
	long got;
	int i;

	asys_watchdog_step = "6: asys_await_completion() with a ring";
	got = submit_getpids(3, 60);
	CHECK(got == 3, "3 getpid()s (got %ld)", got);
	got = errno_of(asys_await_completion((struct asys_completion *)0x1000));
	CHECK(got == -EFAULT && asys_ring_ready(r) == 3,
	      "await with a bad pointer gives EFAULT and the entry stays (got %ld, %u unread)",
	      got, asys_ring_ready(r));
	for (i = 0; i < 3; i++) {
		got = asys_await_completion(&c);
		CHECK(got == 1 && c.cookie == 60ul + i && c.return_code == getpid(),
		      "await %d returns entry %d of the ring (got %ld, cookie %lu)", i + 1, i, got,
		      c.cookie);
	}
	CHECK(asys_ring_ready(r) == 0, "and moved head past them (%u unread)", asys_ring_ready(r));
	got = asys_await_completion(&c);
	CHECK(got == 0, "then await returns 0: nothing pending (got %ld)", got);
}

/* 7: back to the queue; fork and exec */
static void no_ring_after(const char *self)
{
	struct asys_completion c = { 0, 0 };
	struct asys_timespec32 ts;
	unsigned long sargs[2];
	struct asys_input q;
	int code;
	pid_t pid;
	long got;

	asys_watchdog_step = "7: fork";
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		got = errno_of(asys_ring_wait(0));
		if (got != -EINVAL)
			_exit(10);
		if (submit_getpids(1, 70) != 1 || asys_await_completion(&c) != 1 || c.cookie != 70)
			_exit(11);
		_exit(0);
	}
	code = asys_child_exit(pid, 10000);
	CHECK(code == 0, "a forked child has no ring and collects from the queue (exit %d; 10: "
	      "asys_ring_wait did not give EINVAL, 11: no completion)", code);

	asys_watchdog_step = "7: exec";
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* a ring of its own, then exec: the new image has none */
		static unsigned char m[ASYS_RING_BYTES(8)] __attribute__((aligned(8)));

		asys_ring_setup(NULL, 0);
		if (asys_ring_setup((struct asys_ring *)m, 8))
			_exit(12);
		/* no ASYS_TEST_RING: the new image's constructor must not register one */
		execle(self, self, "--after-exec", (char *)NULL, (char *[]){ NULL });
		_exit(13);
	}
	code = asys_child_exit(pid, 10000);
	CHECK(code == 0, "an exec'd image starts with no ring (exit %d; 12: setup failed, 13: "
	      "exec failed, 14: asys_ring_wait did not give EINVAL after exec)", code);

	asys_watchdog_step = "7: unregister";
	got = errno_of(asys_ring_setup(NULL, 0));
	CHECK(got == 0, "asys_ring_setup(NULL, 0) unregisters (got %ld)", got);
	got = errno_of(asys_ring_wait(0));
	CHECK(got == -EINVAL, "asys_ring_wait() without a ring gives EINVAL (got %ld)", got);
	got = submit_getpids(1, 80);
	CHECK(got == 1 && asys_await_completion(&c) == 1 && c.cookie == 80,
	      "without a ring, completions go to the queue again (cookie %lu)", c.cookie);
	asys_sleep_req(&q, 90, 300, &ts, sargs);
	got = errno_of(asys_submit(&q, 1));
	CHECK(got == 1, "a 300 ms nanosleep starts (got %ld)", got);
	got = errno_of(asys_ring_setup((struct asys_ring *)mem[0], 64));
	CHECK(got == -EBUSY, "a ring while a call is pending gives EBUSY (got %ld)", got);
	got = asys_await_completion(&c);
	CHECK(got == 1 && c.cookie == 90, "the sleep completes through the queue (got %ld, "
	      "cookie %lu)", got, c.cookie);
}

int main(int argc, char **argv)
{
	long got;

	if (argc > 1 && !strcmp(argv[1], "--after-exec"))
		return errno_of(asys_ring_wait(0)) == -EINVAL ? 0 : 14;
	asys_watchdog(60);
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	got = errno_of(asys_ring_setup(NULL, 0));
	REQUIRE(got == 0, "asys_ring_setup(NULL, 0): no ring (a ring boot's goes) (got %ld)", got);
	setup_refuses();
	entries_as_sync((struct asys_ring *)mem[0]);
	small_ring();
	await_reads_ring();
	no_ring_after(argv[0]);
	return labtest_done();
}
