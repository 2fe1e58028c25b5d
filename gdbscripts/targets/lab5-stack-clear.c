/*
 * The program the Lab 5 walkthrough stops in: twelve asynchronous read(2)s
 * of an empty pipe, one at a time, each completed by a write.  Each read
 * blocks, so each runs on a fibril with a stack of its own; with the stack
 * cache, every stack after the first comes back from the cache, the one
 * the previous read used.
 */
#include <unistd.h>
#include "asys_test.h"

int main(void)
{
	struct asys_input req;
	struct asys_completion comp;
	unsigned long args[3];
	char buf[8] = "";
	int fds[2], i, done = 0;

	if (pipe(fds) < 0) {
		perror("pipe");
		return 1;
	}
	args[0] = fds[0];
	args[1] = (unsigned long)buf;
	args[2] = 1;
	for (i = 0; i < 12; i++) {
		asys_req(&req, __NR_read, i, args, 3);
		if (asys_submit(&req, 1) != 1 || write(fds[1], "x", 1) != 1 ||
		    asys_await_completion(&comp) != 1 || comp.return_code != 1)
			break;
		done++;
	}
	printf("lab5-stack-clear: %d of 12 round trips\n", done);
	return done == 12 ? 0 : 1;
}
