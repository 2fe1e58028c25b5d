# Lab 7 walkthrough: cachemiss, the moment a call blocks and the user context leaves.
# Run by `make check` against a -S guest running gdbscripts/targets/lab7-cachemiss.c (it
# sets kernel.asys_cachemiss=1, submits a read of an empty pipe, writes, awaits); the
# transcript must match lab7-cachemiss.expect.
# Live: `make qemu-gdb LAB=7`, `make gdb LAB=7`, then `source gdbscripts/lab7-cachemiss.gdb`
# and run a program called "prog" in the guest (or edit the comm below).

set language c
hbreak __ia32_sys_read if $_streq($lx_current().comm, "prog")
continue

checkpoint 1. read(2) runs inline: on the task's own stack, called by asys_run_inline(), no fibril made
bt 6
set $me = $lx_current().fibril
printf "task->stack %p, esp 0x%08lx, running fibril %p, main chain %p\n", $lx_current().stack, (unsigned long)$esp, $me, $lx_current().fibril_main
if $me == $lx_current().fibril_main
  if (unsigned long)$esp - (unsigned long)$lx_current().stack < sizeof(init_stack)
    echo esp inside the task's own stack, on the main chain: yes\n
  end
end
printf "inline_call %d; the spare made ready for the user context: %p, stack %p\n", $me->inline_call, $me->spare, $me->spare->stack
delete

checkpoint 2. the pipe is empty: read(2) sleeps, and schedule_fibril() moves the user context
hbreak fibril_move_user_context if $_streq($lx_current().comm, "prog")
continue
bt 8
printf "prev %p keeps stack %p; the spare %p has stack %p\n", prev, prev->stack, prev->spare, prev->spare->stack
if prev->stack == tsk->stack
  echo the stack prev keeps is the task's own: yes\n
end
set $spare = prev->spare
set $left = (unsigned long)prev->stack
delete

checkpoint 3. the switch lands on the spare: ret_from_cachemiss finishes asys_submit() there
hbreak asys_cachemiss_resume if $_streq($lx_current().comm, "prog")
continue
bt 2
printf "now running fibril %p, the main chain %p\n", $lx_current().fibril, $lx_current().fibril_main
if $lx_current().fibril == $lx_current().fibril_main
  echo the spare is the main chain now: yes\n
end
if (unsigned long)$lx_current().stack == (unsigned long)$spare->stack
  if (unsigned long)$esp - (unsigned long)$spare->stack < sizeof(init_stack)
    echo task->stack and esp are the spare's: yes\n
  end
end
printf "the user registers moved with it: ip 0x%08lx, sp 0x%08lx, orig_ax %ld (asys_submit)\n", regs->ip, regs->sp, regs->orig_ax
lx-fibrils
delete

checkpoint 4. asys_submit() returns 1 to user space from the new stack; the read is still pending
hbreak syscall_exit_to_user_mode if $_streq($lx_current().comm, "prog") && regs->orig_ax == $NR_asys_submit
continue
printf "asys_submit returns %ld, from regs at %p on the stack %p\n", regs->ax, regs, $lx_current().stack
delete

checkpoint 5. the write woke the read: it ends on the stack it started on, the task's old one
hbreak asys_teardown_stack if $_streq($lx_current().comm, "prog")
continue
bt 6
printf "asys_teardown_stack: rc = %ld, on fibril %p, stack %p\n", rc, $lx_current().fibril, $lx_current().stack
if (unsigned long)$lx_current().stack == $left
  echo the call ends on the stack the task started with: yes\n
end
set $dying = $lx_current().fibril
delete

checkpoint 6. fibril_exit(): the stack the task was born with is freed as a fibril's
hbreak switch_to_fibril if (unsigned long)$eax == (unsigned long)$dying
continue
printf "switch_to_fibril(prev = 0x%08lx, next = 0x%08lx): prev state 0x%x\n", (unsigned long)$eax, (unsigned long)$edx, ((struct fibril *)$eax)->state
if ((struct fibril *)$eax)->state == $TASK_DEAD
  echo prev is TASK_DEAD: the next chain frees the task's first stack\n
end
delete
checkpoint-end
