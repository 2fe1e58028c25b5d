/*
 * Lab 6's fuzzer, unchanged. Lab 7's kernel runs it once per boot of tests.conf: with
 * asys in its fibril mode and in cachemiss mode, where it must pass just the same.
 */
#include "../../lab6/tests/asys_fuzz.c"
