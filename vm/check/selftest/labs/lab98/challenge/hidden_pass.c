/* Cheat lab: a hidden test that passes anywhere, so it cannot fail on a start tree. */
#include "labtest.h"

int main(void)
{
	CHECK(1, "a hidden check that holds anywhere");
	return labtest_done();
}
