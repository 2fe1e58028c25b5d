/*
 * Lab 4's asys_proc_syscall, unchanged. Lab 7's kernel runs it once per boot of tests.conf: with
 * asys in its fibril mode and in cachemiss mode, where it must pass just the same.
 */
#include "../../lab4/tests/asys_proc_syscall.c"
