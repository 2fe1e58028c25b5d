/*
 * asys_vdso_move: mremap() of the vDSO through asys returns to the submitter as the
 * same mremap() made synchronously does.
 *
 * A program enters the kernel through the vDSO's __kernel_vsyscall, so it returns to a
 * landing pad inside the vDSO. When mremap() moves the vDSO, the kernel moves the
 * thread's return address with it (vdso_fix_landing() in arch/x86/entry/vdso/vma.c);
 * otherwise the thread returns into the old, now unmapped, place and dies of SIGSEGV.
 * The return address is in the registers the thread's user context entered with: on a
 * call's fibril, the call's pt_regs are a copy, and fixing the copy saves nobody.
 *
 * Each case runs in a child. The child finds the vDSO ([vdso] in /proc/self/maps),
 * maps an empty place of its size, and moves the vDSO there with mremap(MREMAP_FIXED):
 *   sync   the oracle: mremap() entered through __kernel_vsyscall
 *   asys   asys_submit() entered through __kernel_vsyscall, with the mremap() as its
 *          request: it runs at once on a fibril, then asys_submit() returns
 * After the move the child must not enter through the old vDSO again (glibc's pointer
 * to it is stale), so it collects and exits with int $0x80: 0 when the call returned
 * the new address, 2 when it returned something else. A child that returned into the
 * old vDSO dies of SIGSEGV.
 */
#define _GNU_SOURCE	/* MREMAP_FIXED */
#include <signal.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "labtest.h"
#include "asys_test.h"

static unsigned long vsyscall;	/* __kernel_vsyscall, from AT_SYSINFO */

/* a system call entered through the vDSO, as glibc's syscall() enters it */
static long vdso_call5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	asm volatile("call *%[fn]"
		     : "=a"(r)
		     : "0"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), [fn] "m"(vsyscall)
		     : "memory", "cc");
	return r;
}

/* a system call entered with int $0x80, which the vDSO's place does not matter to */
static long int80_call3(long nr, long a, long b, long c)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "0"(nr), "b"(a), "c"(b), "d"(c) : "memory", "cc");
	return r;
}

static int find_vdso(unsigned long *start, unsigned long *len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	unsigned long lo, hi;
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			found = 1, *start = lo, *len = hi - lo;
	if (f)
		fclose(f);
	return found;
}

static void child(int through_asys)
{
	unsigned long start = 0, len = 0, args[ASYS_MAX_ARGS] = { 0 };
	struct asys_input req;
	struct asys_completion comp;
	void *place;
	long r;

	if (!find_vdso(&start, &len))
		_exit(3);
	place = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (place == MAP_FAILED)
		_exit(4);
	args[0] = start;
	args[1] = len;
	args[2] = len;
	args[3] = MREMAP_MAYMOVE | MREMAP_FIXED;
	args[4] = (unsigned long)place;
	if (!through_asys) {
		r = vdso_call5(SYS_mremap, args[0], args[1], args[2], args[3], args[4]);
	} else {
		asys_req(&req, SYS_mremap, 7, args, 5);
		r = vdso_call5(__NR_asys_submit, (long)&req, 1, 0, 0, 0);
		if (r != 1)
			int80_call3(SYS_exit_group, 5, 0, 0);
		r = int80_call3(__NR_asys_await_completion, (long)&comp, 0, 0);
		if (r != 1)
			int80_call3(SYS_exit_group, 6, 0, 0);
		r = comp.return_code;
	}
	int80_call3(SYS_exit_group, r == (long)place ? 0 : 2, 0, 0);
}

/* one case in a child: "exit N" or "killed by signal N" */
static int run(int through_asys, char *how, size_t n)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		child(through_asys);
	if (pid < 0 || !asys_reap_within(pid, &status, 10000)) {
		snprintf(how, n, "not reaped");
		return -1;
	}
	if (WIFSIGNALED(status))
		snprintf(how, n, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(how, n, "exit %d", WEXITSTATUS(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	char how[96];

	REQUIRE(asys_present(), "asys_submit is a system call of this kernel");
	vsyscall = getauxval(AT_SYSINFO);
	REQUIRE(vsyscall != 0, "the kernel gives __kernel_vsyscall (AT_SYSINFO)");
	asys_watchdog(40);

	asys_watchdog_step = "the synchronous mremap of the vDSO";
	CHECK(run(0, how, sizeof(how)) == 0, "the oracle: a synchronous mremap() moves the "
	      "vDSO and returns the new address to its caller (%s)", how);
	asys_watchdog_step = "the mremap of the vDSO through asys";
	CHECK(run(1, how, sizeof(how)) == 0, "an mremap() of the vDSO through asys moves it, "
	      "and asys_submit() returns to its caller, as the synchronous call does (%s)", how);
	return labtest_done();
}
