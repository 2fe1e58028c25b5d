/*
 * The program the Lab 4 walkthrough stops in: one asynchronous read(2) of an
 * empty pipe.  asys_submit() returns at once with the read still pending on
 * its fibril; the write then wakes it, and asys_await_completion() collects
 * the return code (5 bytes) with the cookie (42).
 */
#include <unistd.h>
#include "asys_test.h"

int main(void)
{
	struct asys_input req;
	struct asys_completion comp;
	unsigned long args[3];
	char buf[8] = "";
	int fds[2];
	long n;

	if (pipe(fds) < 0) {
		perror("pipe");
		return 1;
	}
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 5;
	asys_req(&req, __NR_read, 42, args, 3);
	n = asys_submit(&req, 1);
	printf("lab4-asys: asys_submit returned %ld; the read is pending\n", n);
	if (n != 1)
		return 1;
	if (write(fds[1], "hello", 5) != 5)
		return 1;
	n = asys_await_completion(&comp);
	printf("lab4-asys: await returned %ld: return_code %ld, cookie %lu, buf \"%s\"\n",
	       n, comp.return_code, comp.cookie, buf);
	return n == 1 && comp.return_code == 5 && comp.cookie == 42 ? 0 : 1;
}
