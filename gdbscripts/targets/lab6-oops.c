/*
 * The program the Lab 6 walkthrough "an oops on a fibril" runs: one asynchronous
 * nanosleep(2 s), interrupted 200 ms later by a SIGALRM (a handler, no SA_RESTART) while
 * main waits in asys_await_completion().  On the solved kernel the signal wakes the
 * fibril and the nanosleep ends with -EINTR.  The GDB script makes that ending go wrong
 * on purpose: it corrupts the fibril's restart_block first, as Lab 6's defect 1 did.
 */
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#include "asys_test.h"

static void on_alarm(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 200 * 1000 } };
	struct asys_input req;
	struct asys_completion comp;
	struct asys_timespec32 ts;
	unsigned long args[2];
	long n;

	sigaction(SIGALRM, &sa, NULL);
	asys_sleep_req(&req, 7, 2000, &ts, args);
	n = asys_submit(&req, 1);
	printf("lab6-oops: asys_submit returned %ld; the nanosleep is pending\n", n);
	if (n != 1)
		return 1;
	setitimer(ITIMER_REAL, &it, NULL);
	do
		n = asys_await_completion(&comp);
	while (n < 0 && errno == EINTR);
	printf("lab6-oops: await returned %ld: return_code %ld, cookie %lu\n",
	       n, comp.return_code, comp.cookie);
	return 0;
}
