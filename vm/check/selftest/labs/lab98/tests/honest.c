/* Cheat lab: a test that passes. It must earn its point (unless the boot is unhealthy). */
#include "labtest.h"

int main(void)
{
	CHECK(1, "an honest check that holds");
	return labtest_done();
}
