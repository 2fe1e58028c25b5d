/*
 * Lab 6's asys_fuzz, unchanged. Lab 8's kernel runs it with a completion ring registered
 * (labs/include/asys_test.h: the main thread before main(), each worker as it starts), in asys's fibril mode and in
 * cachemiss mode: every completion goes through the ring, and it must pass just the same.
 */
#include "../../lab6/tests/asys_fuzz.c"
