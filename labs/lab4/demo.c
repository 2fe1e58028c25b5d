/*
 * The Lab 4 demo (make demo on the fully solved kernel): asynchronous system calls on
 * fibrils, as a timeline.
 *
 * One task submits three sleeps (300, 200 and 400 ms), a read from an empty pipe and a
 * getpid, one asys_submit() each. Every submit returns at once: a call that blocks waits
 * on its own fibril (a kernel stack of its own inside this task), a call that does not
 * block runs to the end inline. Then the demo collects completions with
 * asys_await_completion(): the sleeps come back in the order they finish, not the order
 * they were submitted, and once they are in, the demo writes into the pipe and the
 * pending read completes. The sleeps overlapped: 900 ms of sleeping in about 400 ms.
 *
 * Exit status 0 iff that overlap was observed.
 */
#include "asys_test.h"

#define NSLEEPS 3
#define COOKIE_READ 4
#define COOKIE_GETPID 5

static double t0;

static void stamp(void)
{
	printf("t=%5.0f ms  ", asys_now_ms() - t0);
}

/* submit one request and say how long asys_submit took */
static long submit_one(struct asys_input *req, const char *what)
{
	double start = asys_now_ms();
	long r = asys_submit(req, 1);

	stamp();
	printf("submit: %-26s (cookie %lu) ... returned %ld after %.2f ms\n",
	       what, req->cookie, r, asys_now_ms() - start);
	if (r != 1)
		printf("            asys_submit failed: errno %d (%s)\n", errno, strerror(errno));
	return r;
}

int main(void)
{
	static const unsigned int sleep_ms[NSLEEPS] = { 300, 200, 400 };
	struct asys_input req;
	struct asys_timespec32 ts[NSLEEPS];
	unsigned long sargs[NSLEEPS][2], rargs[3];
	struct asys_completion c;
	char buf[16] = "", what[32];
	int fds[2], i, sleeps_done = 0, sleeps_back = 0, read_done = 0, started = 0, sum = 0, max = 0;
	double t_sleeps = 0;
	long r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (asys_submit(&req, 0) == -1 && errno == ENOSYS) {	/* 0 requests: a probe */
		printf("this kernel has no asys_submit (system call %d gives ENOSYS).\n"
		       "Build the fully solved kernel (all four fibril patches, Lab 4 solved) and\n"
		       "run make demo on it: the demo shows asynchronous system calls at work.\n",
		       __NR_asys_submit);
		return 1;
	}
	asys_watchdog(20);
	if (pipe(fds) != 0) {
		perror("pipe");
		return 1;
	}

	printf("Asynchronous system calls on fibrils: one task, several calls in flight.\n\n");
	t0 = asys_now_ms();

	/* three sleeps: each blocks, so each stays pending on its own fibril */
	for (i = 0; i < NSLEEPS; i++) {
		asys_sleep_req(&req, i + 1, sleep_ms[i], &ts[i], sargs[i]);
		snprintf(what, sizeof(what), "sleep %u ms", sleep_ms[i]);
		if (submit_one(&req, what) == 1) {
			started++;
			sum += sleep_ms[i];
			max = sleep_ms[i] > (unsigned int)max ? (int)sleep_ms[i] : max;
		}
	}

	/* a read from an empty pipe: it waits until the demo writes */
	rargs[0] = fds[0];
	rargs[1] = (unsigned long)buf;
	rargs[2] = 5;
	asys_req(&req, SYS_read, COOKIE_READ, rargs, 3);
	read_done = submit_one(&req, "read 5 bytes, empty pipe") == 1 ? 0 : -1;

	/* getpid never blocks: it runs inline, its completion is waiting already */
	asys_req(&req, SYS_getpid, COOKIE_GETPID, NULL, 0);
	submit_one(&req, "getpid");

	stamp();
	printf("main: all submitted and back in user space; now collecting completions\n");

	asys_watchdog_step = "collecting completions";
	while ((r = asys_await_completion(&c)) == 1) {
		stamp();
		if (c.cookie >= 1 && c.cookie <= NSLEEPS) {
			printf("completion: cookie %lu (sleep %u ms) rc=%ld\n",
			       c.cookie, sleep_ms[c.cookie - 1], c.return_code);
			sleeps_done += c.return_code == 0;
			if (++sleeps_back == started) {
				t_sleeps = asys_now_ms() - t0;
				if (read_done == 0) {
					stamp();
					printf("main: the sleeps are done; writing \"hello\" into the pipe\n");
					if (write(fds[1], "hello", 5) != 5)
						perror("write");
				}
			}
		} else if (c.cookie == COOKIE_READ) {
			printf("completion: cookie %lu (read from the pipe) rc=%ld \"%.5s\"\n",
			       c.cookie, c.return_code, c.return_code > 0 ? buf : "");
			read_done = 1;
		} else if (c.cookie == COOKIE_GETPID) {
			printf("completion: cookie %lu (getpid) rc=%ld: it ran inline, our pid is %d\n",
			       c.cookie, c.return_code, getpid());
		} else {
			printf("completion: cookie %lu rc=%ld (unexpected)\n", c.cookie, c.return_code);
		}
	}
	stamp();
	if (r == 0)
		printf("await returned 0: nothing pending, nothing left to collect\n");
	else
		printf("await failed: errno %d (%s)\n", errno, strerror(errno));
	alarm(0);

	printf("\n");
	if (sleeps_done == NSLEEPS && t_sleeps < sum * 3 / 4) {
		printf("%d calls worth %d ms finished in %.0f ms: they overlapped.\n", NSLEEPS, sum, t_sleeps);
		printf("(one after the other they would take %d ms; side by side, as long as the longest, %d ms)\n",
		       sum, max);
		return 0;
	}
	if (sleeps_done == NSLEEPS)
		printf("%d calls worth %d ms took %.0f ms: they did NOT overlap.\n", NSLEEPS, sum, t_sleeps);
	else
		printf("only %d of %d sleeps completed with rc=0: no overlap to show.\n", sleeps_done, NSLEEPS);
	return 1;
}
