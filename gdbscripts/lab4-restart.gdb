# Lab 4 walkthrough, exercise 6: a call on a fibril, interrupted and restarted.
# Run by `make check` against a -S guest running gdbscripts/targets/lab4-restart.c (an
# asys read(2) of an empty pipe, then SIGUSR1 with an SA_RESTART handler, then a write
# and the await); the transcript must match lab4-restart.expect.
# Live: `make qemu-gdb LAB=4`, `make gdb LAB=4`, then `source gdbscripts/lab4-restart.gdb`
# and run a program called "prog" in the guest (or edit the comm below).

set language c

checkpoint 1. the signal woke the read: pipe_read() returned -ERESTARTSYS on the call's fibril
hbreak asys_interrupted if $_streq($lx_current().comm, "prog")
continue
bt 4
set $f = $lx_current().fibril
printf "asys_interrupted: rc = %ld (-512 is -ERESTARTSYS), syscall %u, on fibril %p (main chain %p)\n", rc, call->nr, $f, $lx_current().fibril_main
echo a synchronous read would now return to user space, where the signal's delivery decides; this one waits for it\n
delete

checkpoint 2. the main chain delivers the signal: the handler has SA_RESTART
hbreak asys_signal_delivered if $_streq($lx_current().comm, "prog")
continue
bt 3
printf "delivering signal %d on chain %p\n", ksig->sig, $lx_current().fibril
if $lx_current().fibril == $lx_current().fibril_main
  echo the main chain: yes (only it returns to user space)\n
end
printf "sa_flags 0x%08lx: ", ksig->ka.sa.sa_flags
if ksig->ka.sa.sa_flags & $SA_RESTART
  echo SA_RESTART set: -ERESTARTSYS restarts\n
else
  echo SA_RESTART clear: -EINTR\n
end
delete

checkpoint 3. the verdict: the read is issued again, on the same fibril, from the same pt_regs
hbreak ia32_sys_call if $lx_current().fibril == $f
continue
bt 3
printf "ia32_sys_call(nr = %u) again on fibril %p; pt_regs orig_ax = %ld (read), dx = %ld (count)\n", nr, $lx_current().fibril, regs->orig_ax, regs->dx
delete

checkpoint 4. the restarted read got the write's bytes: the completion holds them, not -EINTR
hbreak asys_teardown_stack if $lx_current().fibril == $f
continue
printf "asys_teardown_stack: rc = %ld, cookie = %lu, on fibril %p\n", rc, call->result->comp.cookie, $lx_current().fibril
delete
checkpoint-end
