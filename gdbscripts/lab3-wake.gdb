# Lab 3 walkthrough: a targeted wake-up, from the wait entry to the fibril switch.
# Run by `make check` against a -S guest running gdbscripts/targets/lab3-wake.c (the
# self-test's mode=waitqueue: fibril 0 wakes fibril 1); the transcript must match
# lab3-wake.expect.
# Live: `make qemu-gdb LAB=3`, `make gdb LAB=3`, then `source gdbscripts/lab3-wake.gdb`
# and run the self-test in the guest from a program called "prog" (or edit the comm).

set language c
# Stop at the first wake-up of a wait entry whose ->private has bit 0 set: a fibril.
hbreak default_wake_function if $_streq($lx_current().comm, "prog") && ((unsigned long)curr->private & 1)
continue

checkpoint 1. wake_up() reached the sleeper's entry: ->private is a wake target, not a task
bt 6
printf "curr->private = %p, bit 0 = %lu\n", curr->private, (unsigned long)curr->private & 1
lx-wake-target curr->private
set $wf = (struct fibril *)((unsigned long)curr->private & ~1UL)
printf "the fibril to wake: %p (the waker is %p)\n", $wf, $lx_current().fibril
lx-fibrils
delete

checkpoint 2. try_to_wake_up(p, f) holds p->pi_lock and asks fibril_ttwu() about f
hbreak fibril_ttwu if f == $wf
continue
bt 4
printf "fibril_ttwu: p = %s (pid %d), f = %p, f->state = %u, p->fibril = %p\n", p->comm, p->pid, f, f->state, p->fibril
if f != p->fibril
  echo f is switched out (not the chain that runs): a fibril wake-up, not a task wake-up\n
end
# Disarm before finish, so that finish can only stop where it returns.
delete
finish
printf "after fibril_ttwu: f->state = %u (0 is TASK_RUNNING)\n", $wf->state
lx-wake-target ((unsigned long)$wf | 1)

checkpoint 3. the waker yields; the next fibril switch goes to the fibril we woke
hbreak switch_to_fibril if (unsigned long)$edx == (unsigned long)$wf
continue
printf "switch_to_fibril(prev = 0x%08lx, next = 0x%08lx)\n", (unsigned long)$eax, (unsigned long)$edx
if (unsigned long)$edx == (unsigned long)$wf
  echo next is the fibril the wake target named: yes\n
end
# task->fibril already names next, but %esp is still on prev's stack until the swap
lx-fibrils
delete
checkpoint-end
