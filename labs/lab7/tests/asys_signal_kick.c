/*
 * Lab 4's asys_signal_kick, unchanged. Lab 7's kernel runs it once per boot of tests.conf: with
 * asys in its fibril mode and in cachemiss mode, where it must pass just the same.
 */
#include "../../lab4/tests/asys_signal_kick.c"
