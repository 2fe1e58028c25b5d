# Lab 6 walkthrough: what the kernel does after an oops on a fibril.
# Run by `make check` against a -S guest running gdbscripts/targets/lab6-oops.c (an asys
# nanosleep(2 s) that a SIGALRM interrupts); the transcript must match lab6-oops.expect.
# Live: `make qemu-gdb LAB=6`, `make gdb LAB=6`, then `source gdbscripts/lab6-oops.gdb`
# and run a program called "prog" in the guest.
#
# The fault is injected by GDB: it recreates Lab 6's defect 1 (a restart_block that
# another chain overwrote) by writing an invalid nanosleep.type into the fibril's own
# restart_block. When the signal interrupts the sleep, do_nanosleep() hands the remaining
# time to nanosleep_copyout(), whose switch on the type ends in BUG().

set language c
# prog's only nanosleep is the asys one: its main chain waits in asys_await_completion()
hbreak hrtimer_nanosleep if $_streq($lx_current().comm, "prog")
continue

checkpoint 1. the asys nanosleep starts on a call's fibril, not on the main chain
bt 6
printf "task->fibril %p, task->fibril_main %p\n", $lx_current().fibril, $lx_current().fibril_main
if $lx_current().fibril != $lx_current().fibril_main
  echo running on a call's fibril: yes\n
end
printf "restart_block.nanosleep.type = %d (0: TT_NONE, no remaining time to copy out)\n", $lx_current().restart_block.nanosleep.type
set var $lx_current().restart_block.nanosleep.type = 3
printf "GDB writes restart_block.nanosleep.type = %d: a type nanosleep_copyout() has no case for\n", $lx_current().restart_block.nanosleep.type
delete

checkpoint 2. SIGALRM interrupts the sleep; BUG() in nanosleep_copyout(); the oops ends in make_task_dead()
hbreak make_task_dead
continue
bt 2
if $lx_current().fibril != $lx_current().fibril_main
  echo the oopsing chain is a call's fibril: do_exit() cannot run here\n
end
delete

checkpoint 3. instead of a do_exit() that would wait for itself forever: a panic that says why
hbreak panic
continue
bt 2
printf "panic(\"%s\")\n", fmt
delete
checkpoint-end
