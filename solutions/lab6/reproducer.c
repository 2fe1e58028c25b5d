/*
 * Lab 6: the reference reproducer of patch 6's defect (make check runs it: it must exit 1
 * on Lab 6's start kernel and 0 on the solved one, vm/check/check-reproducers.sh).
 *
 * A request that asys_submit() refuses after its limit check (here: arguments it cannot
 * read, EFAULT) must leave the task as it found it. With the defect, each one keeps a
 * pending slot for ever: after kernel.asys_max_pending of them, a getpid() that should
 * start is refused with EAGAIN, though nothing is outstanding.
 *
 * On the start tree it prints
 *   after 256 refused requests, getpid: submit returned -1, errno EAGAIN (want started)
 * and exits 1; on a kernel without the defect
 *   after 256 refused requests, getpid: started, completion 1 (return_code = pid)
 * and exits 0.
 */
#include <stdio.h>
#include "asys_test.h"

int main(void)
{
	unsigned long limit = 256, i;
	struct asys_completion c;
	FILE *f;
	long r;
	int err;

	if (!asys_present())
		return 2;
	f = fopen("/proc/sys/kernel/asys_max_pending", "r");
	if (f) {
		if (fscanf(f, "%lu", &limit) != 1)
			limit = 256;
		fclose(f);
	}
	/* a read whose arguments cannot be read: EFAULT, nothing started */
	for (i = 0; i < limit; i++) {
		r = asys_submit1(SYS_read, i, (unsigned long *)1, 3, &err);
		if (r != -1 || err != EFAULT) {
			printf("refused request %lu: submit returned %ld, errno %s (want -1, EFAULT)\n",
			       i, r, r == -1 ? asys_errname(err) : "-");
			return 2;
		}
	}
	r = asys_submit1(SYS_getpid, 1, asys_noargs, 0, &err);
	if (r != 1) {
		printf("after %lu refused requests, getpid: submit returned %ld, errno %s (want started)\n",
		       limit, r, r == -1 ? asys_errname(err) : "-");
		return 1;
	}
	r = asys_await_completion(&c);
	printf("after %lu refused requests, getpid: started, completion %ld (return_code %s pid)\n",
	       limit, r, c.return_code == getpid() ? "=" : "!=");
	return r == 1 && c.return_code == getpid() ? 0 : 1;
}
