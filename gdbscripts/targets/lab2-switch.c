/*
 * The program the Lab 2 walkthrough stops in: one small fibril self-test run
 * (two fibrils, a few switches), through the debugfs file patch 2 adds.
 */
#include "selftest_target.h"

int main(void)
{
	return run_selftest("lab2-switch", "fibrils=2 switches=4\n");
}
