/*
 * Cheat lab: a test whose check fails, with exit status 0: what a kernel that rewrites
 * exit statuses (a hand-in's do_group_exit() that sets a test's to 0) makes of a failing
 * test. Its own summary still counts the failure: the grader must believe that.
 */
#include "labtest.h"

int main(void)
{
	CHECK(0, "the behaviour the lab asks for");
	labtest_done();
	return 0;
}
