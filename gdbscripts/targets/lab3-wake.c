/*
 * The program the Lab 3 walkthrough stops in: one small self-test run in
 * mode=waitqueue (fibril 0 wakes fibril 1, which sleeps on a wait queue of
 * its own), through the debugfs file patches 2 and 3 add.
 */
#include "selftest_target.h"

int main(void)
{
	return run_selftest("lab3-wake", "mode=waitqueue fibrils=2 rounds=2\n");
}
