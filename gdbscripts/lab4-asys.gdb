# Lab 4 walkthrough: the life of one blocking asynchronous call.
# Run by `make check` against a -S guest running gdbscripts/targets/lab4-asys.c (an
# asys read(2) of an empty pipe, then a write, then the await); the transcript must
# match lab4-asys.expect.
# Live: `make qemu-gdb LAB=4`, `make gdb LAB=4`, then `source gdbscripts/lab4-asys.gdb`
# and run a program called "prog" in the guest (or edit the comm below).

set language c
hbreak __ia32_sys_asys_submit if $_streq($lx_current().comm, "prog")
continue

checkpoint 1. sys_asys_submit(): one request; the task has no fibrils yet
bt 3
printf "asys_submit(requests = 0x%08lx, nr_requests = %lu)\n", regs->bx, regs->cx
printf "task->fibril = %p (NULL: the task never used fibrils)\n", $lx_current().fibril
delete

checkpoint 2. the call's fibril starts: a new stack whose top holds a pt_regs for read(2)
hbreak asys_call_fn if $_streq($lx_current().comm, "prog")
continue
set $call = (struct asys_call *)arg
set $f = $call->fibril
set $regs = (struct pt_regs *)((unsigned long)$f->stack + sizeof(init_stack) - 8) - 1
printf "running on fibril %p, stack %p..%p, esp 0x%08lx\n", $f, $f->stack, (char *)$f->stack + sizeof(init_stack), (unsigned long)$esp
if (unsigned long)$esp - (unsigned long)$f->stack < sizeof(init_stack)
  echo esp inside the call's own stack: yes\n
end
printf "pt_regs on that stack: orig_ax = %ld (read), bx = %ld (fd), cx = 0x%08lx (buf), dx = %ld (count)\n", $regs->orig_ax, $regs->bx, $regs->cx, $regs->dx
lx-fibrils
delete

checkpoint 3. the pipe is empty: read(2) sleeps, and schedule() picks another fibril
hbreak schedule_fibril if $_streq($lx_current().comm, "prog")
continue
bt 12
lx-fibrils
delete

checkpoint 4. asys_submit returned to user space (the read still pending); now main writes into the pipe
hbreak __ia32_sys_write if $_streq($lx_current().comm, "prog") && regs->bx != 1
continue
printf "write(fd %lu, count %lu) on the main chain: task->fibril %p\n", regs->bx, regs->dx, $lx_current().fibril
lx-fibrils
delete

checkpoint 4b. pipe_write() wakes the reader: a wake target names the call's fibril (Lab 3)
hbreak fibril_ttwu if $_streq($lx_current().comm, "prog") && f != 0
continue
bt 8
lx-wake-target ((unsigned long)f | 1)
delete

checkpoint 5. the read returned: asys_teardown_stack() queues its return code and cookie
hbreak asys_teardown_stack if $_streq($lx_current().comm, "prog")
continue
bt 4
printf "asys_teardown_stack: rc = %ld, cookie = %lu, on fibril %p\n", rc, call->result->comp.cookie, $lx_current().fibril
set $dying = $lx_current().fibril
delete

checkpoint 6. fibril_exit(): the switch away from the dying fibril, for good
hbreak switch_to_fibril if (unsigned long)$eax == (unsigned long)$dying
continue
printf "switch_to_fibril(prev = 0x%08lx, next = 0x%08lx): prev state 0x%x\n", (unsigned long)$eax, (unsigned long)$edx, ((struct fibril *)$eax)->state
if ((struct fibril *)$eax)->state == $TASK_DEAD
  echo prev is TASK_DEAD: the next chain frees its stack\n
end
delete

checkpoint 7. the submitter was asleep in asys_await_completion(): it returns 1 to user space
hbreak syscall_exit_to_user_mode if $_streq($lx_current().comm, "prog") && regs->orig_ax == $NR_asys_await_completion
continue
printf "asys_await_completion returns %ld to user space\n", regs->ax
delete
checkpoint-end
