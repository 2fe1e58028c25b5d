/*
 * Lab 4's asys_proc_syscall, unchanged. Lab 8's kernel runs it with a completion ring registered
 * (labs/include/asys_test.h registers it before main()), in asys's fibril mode and in
 * cachemiss mode: every completion goes through the ring, and it must pass just the same.
 */
#include "../../lab4/tests/asys_proc_syscall.c"
