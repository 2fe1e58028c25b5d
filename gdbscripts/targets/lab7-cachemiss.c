/*
 * The program the Lab 7 walkthrough stops in: cachemiss mode, then one asynchronous
 * read(2) of an empty pipe.  The read runs on the task's own stack and blocks there; the
 * user context moves to a new stack and asys_submit() returns from it.  The write then
 * wakes the read, which ends on the stack it started on, and asys_await_completion()
 * collects its return code (5 bytes) with the cookie (7).
 */
#include <unistd.h>
#include "asys_test.h"
#include "cachemiss.h"

int main(void)
{
	struct asys_input req;
	struct asys_completion comp;
	unsigned long args[3];
	char buf[8] = "";
	int fds[2];
	long n;

	if (cachemiss_set(1) || pipe(fds) < 0) {
		perror("kernel.asys_cachemiss=1, pipe");
		return 1;
	}
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 5;
	asys_req(&req, __NR_read, 7, args, 3);
	n = asys_submit(&req, 1);
	printf("lab7-cachemiss: asys_submit returned %ld; the read is pending\n", n);
	if (n != 1)
		return 1;
	if (write(fds[1], "hello", 5) != 5)
		return 1;
	n = asys_await_completion(&comp);
	printf("lab7-cachemiss: await returned %ld: return_code %ld, cookie %lu, buf \"%s\"\n",
	       n, comp.return_code, comp.cookie, buf);
	return n == 1 && comp.return_code == 5 && comp.cookie == 7 ? 0 : 1;
}
