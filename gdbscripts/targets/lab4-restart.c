/*
 * The program the Lab 4 restart walkthrough stops in: an asynchronous
 * read(2) of an empty pipe, interrupted by a signal whose handler has
 * SA_RESTART.  The read on its fibril gets -ERESTARTSYS; the delivery of
 * the signal restarts it, as it would restart the same read made
 * synchronously; the write then gives it its 5 bytes, and
 * asys_await_completion() collects return code 5, cookie 7.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "asys_test.h"

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

int main(void)
{
	struct asys_input req;
	struct asys_completion comp;
	struct sigaction sa;
	unsigned long args[3];
	char buf[8] = "";
	int fds[2];
	long n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	if (pipe(fds) < 0 || sigaction(SIGUSR1, &sa, NULL) < 0) {
		perror("pipe/sigaction");
		return 1;
	}
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 5;
	asys_req(&req, __NR_read, 7, args, 3);
	n = asys_submit(&req, 1);
	printf("lab4-restart: asys_submit returned %ld; the read is pending\n", n);
	if (n != 1)
		return 1;
	/* the signal wakes the read; its handler runs on the way out of kill() */
	kill(getpid(), SIGUSR1);
	printf("lab4-restart: SIGUSR1 handled %d time(s)\n", (int)handled);
	if (write(fds[1], "hello", 5) != 5)
		return 1;
	n = asys_await_completion(&comp);
	printf("lab4-restart: await returned %ld: return_code %ld, cookie %lu, buf \"%s\"\n",
	       n, comp.return_code, comp.cookie, buf);
	return n == 1 && comp.return_code == 5 && comp.cookie == 7 && handled == 1 ? 0 : 1;
}
