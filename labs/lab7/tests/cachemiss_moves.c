/*
 * cachemiss_moves: in cachemiss mode a call runs on the submitter's own stack, and the
 * user context moves to a new stack only when the call blocks. Counted, never timed:
 *
 *   1. A call that does not block (getpid) moves nothing, and its completion is right.
 *   2. A read of an empty pipe blocks: asys_submit still returns 1, after exactly one
 *      move, while the read is pending (the task has 2 fibrils: the user context and the
 *      call). A write completes it with the byte.
 *   3. A batch [read A, getpid, read B, gettid] moves twice and is submitted whole (4):
 *      what follows a blocked call is submitted from the new stack.
 *   4. The registers the compiler keeps across a system call (ebx, esi, edi, ebp) come
 *      back unchanged from a submit that moved, through int $0x80 and through the vDSO
 *      (sysenter).
 *   5. After a move, fork() works, and the child is a copy of the user context: it
 *      returns to user space and exits with the status it chose.
 * First of all, the boot's mode is the one its kernel command line asks for: make check
 * boots Lab 7 in each mode, and Lab 4's tests are only evidence in the mode they ran in.
 */
#include "labtest.h"
#include "asys_test.h"
#include "cachemiss.h"

static int ok;	/* a REQUIRE condition with side effects, evaluated once before it */

/* asys_submit through int $0x80, with esi, edi and ebp holding values of ours */
static long submit_int80_keeping(struct asys_input *r, unsigned long n, unsigned long *kept)
{
	long ret;
	unsigned long si = 0x51515151, di = 0xd1d1d1d1, bp;

	__asm__ volatile("push %%ebp\n\t"
			 "movl $0xb0b0b0b0, %%ebp\n\t"
			 "int $0x80\n\t"
			 "movl %%ebp, %%ecx\n\t"
			 "pop %%ebp"
			 : "=a"(ret), "+S"(si), "+D"(di), "=c"(bp)
			 : "a"(451), "b"(r), "c"(n)
			 : "memory", "edx");
	kept[0] = si;
	kept[1] = di;
	kept[2] = bp;
	return ret;
}

static int blocking_read(int fd, char *buf, struct asys_input *r, unsigned long *args,
			 unsigned long cookie)
{
	args[0] = fd;
	args[1] = (unsigned long)buf;
	args[2] = 1;
	asys_req(r, SYS_read, cookie, args, 3);
	return 0;
}

/* Does the kernel command line have this word? */
static int cmdline_has(const char *word)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");
	char *tok;

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n"))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

int main(void)
{
	int boot_mode, cmdline_on;
	struct asys_input reqs[4];
	struct asys_completion c;
	unsigned long a1[3], a2[3], kept[3];
	char buf1 = 0, buf2 = 0, fibrils[32];
	int p1[2], p2[2], status, i, seen[4] = { 0 };
	long m0, r;
	pid_t pid;

	asys_watchdog(60);
	asys_watchdog_hook = cachemiss_restore;
	ok = asys_present();
	REQUIRE(ok, "this kernel has asys_submit (system call 451)");
	/* the boot's mode, before this test changes it: what make check's boot asked for */
	boot_mode = cachemiss_mode();
	cmdline_on = cmdline_has("sysctl.kernel.asys_cachemiss=1");
	CHECK(boot_mode == cmdline_on, "the mode this boot runs Lab 4's tests in is the one its command line asks for (%d, want %d)",
	      boot_mode, cmdline_on);
	ok = cachemiss_on() == 0;
	REQUIRE(ok, "kernel.asys_cachemiss=1 (this kernel has cachemiss mode)");
	ok = cachemiss_moves() >= 0;
	REQUIRE(ok, "/sys/kernel/debug/fibrils/cachemiss counts the moves");
	ok = pipe(p1) == 0 && pipe(p2) == 0;
	REQUIRE(ok, "two pipes");

	asys_watchdog_step = "1: getpid, which does not block";
	m0 = cachemiss_moves();
	r = asys_submit1(SYS_getpid, 1, NULL, 0, &status);
	CHECK(r == 1, "asys_submit(getpid) returned 1 (%ld)", r);
	CHECK(cachemiss_moves() == m0, "no move for a call that does not block (%ld)", cachemiss_moves() - m0);
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 1 && c.return_code == getpid(), "its completion: cookie %lu, %ld",
	      c.cookie, c.return_code);

	asys_watchdog_step = "2: a read that blocks";
	m0 = cachemiss_moves();
	blocking_read(p1[0], &buf1, &reqs[0], a1, 2);
	r = asys_submit(reqs, 1);
	CHECK(r == 1, "asys_submit(read of an empty pipe) returned 1 (%ld)", r);
	CHECK(cachemiss_moves() == m0 + 1, "exactly one move (%ld)", cachemiss_moves() - m0);
	CHECK(status_field(0, "Fibrils:", fibrils, sizeof(fibrils)) && !strcmp(fibrils, "2"),
	      "the task has 2 fibrils while the read is pending: the user context and the call (%s)",
	      fibrils);
	ok = write(p1[1], "x", 1) == 1;
	REQUIRE(ok, "write a byte");
	r = asys_await_completion(&c);
	CHECK(r == 1 && c.cookie == 2 && c.return_code == 1 && buf1 == 'x',
	      "the read completes with the byte (cookie %lu, %ld, '%c')", c.cookie, c.return_code,
	      buf1 ? buf1 : '?');

	asys_watchdog_step = "3: a batch with two reads that block";
	m0 = cachemiss_moves();
	blocking_read(p1[0], &buf1, &reqs[0], a1, 10);
	asys_req(&reqs[1], SYS_getpid, 11, NULL, 0);
	blocking_read(p2[0], &buf2, &reqs[2], a2, 12);
	asys_req(&reqs[3], SYS_gettid, 13, NULL, 0);
	r = asys_submit(reqs, 4);
	CHECK(r == 4, "the whole batch was submitted (%ld of 4)", r);
	CHECK(cachemiss_moves() == m0 + 2, "two moves, one per read (%ld)", cachemiss_moves() - m0);
	for (i = 0; i < 2 && asys_await_completion(&c) == 1; i++)
		if (c.cookie >= 10 && c.cookie < 14)
			seen[c.cookie - 10] = c.return_code == (c.cookie == 11 ? getpid() : syscall(SYS_gettid));
	CHECK(seen[1] && seen[3], "getpid and gettid complete first, with the task's pid and tid");
	ok = write(p1[1], "a", 1) == 1 && write(p2[1], "b", 1) == 1;
	REQUIRE(ok, "write to both pipes");
	for (i = 0; i < 2 && asys_await_completion(&c) == 1; i++)
		if (c.cookie == 10 || c.cookie == 12)
			seen[c.cookie - 10] = c.return_code == 1;
	CHECK(seen[0] && seen[2] && buf1 == 'a' && buf2 == 'b', "then both reads, each with its byte");

	asys_watchdog_step = "4: registers across a submit that moved";
	m0 = cachemiss_moves();
	blocking_read(p1[0], &buf1, &reqs[0], a1, 20);
	r = submit_int80_keeping(reqs, 1, kept);
	CHECK(r == 1 && cachemiss_moves() == m0 + 1, "int $0x80: submitted (%ld) and moved (%ld)", r,
	      cachemiss_moves() - m0);
	CHECK(kept[0] == 0x51515151 && kept[1] == 0xd1d1d1d1 && kept[2] == 0xb0b0b0b0,
	      "esi, edi, ebp unchanged (%08lx %08lx %08lx)", kept[0], kept[1], kept[2]);
	blocking_read(p2[0], &buf2, &reqs[0], a2, 21);
	r = asys_submit(reqs, 1);	/* syscall(): the vDSO's sysenter */
	CHECK(r == 1 && cachemiss_moves() == m0 + 2, "vDSO: submitted (%ld) and moved (%ld)", r,
	      cachemiss_moves() - m0);

	asys_watchdog_step = "5: fork after a move";
	pid = fork();
	if (pid == 0)
		_exit(42);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 42, "a child forked after the move exits with its own status (%#x)",
	      status);
	ok = write(p1[1], "c", 1) == 1 && write(p2[1], "d", 1) == 1;
	REQUIRE(ok, "write to both pipes");
	CHECK(asys_collect(2) == 2, "both reads complete");
	return labtest_done();
}
