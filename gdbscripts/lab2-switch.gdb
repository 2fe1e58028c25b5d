# Lab 2 walkthrough: one fibril switch, instruction by instruction.
# Run by `make check` against a -S guest running gdbscripts/targets/lab2-switch.c (a
# two-fibril self-test); its transcript must match lab2-switch.expect.
# Live: `make qemu-gdb LAB=2`, `make gdb LAB=2`, then `source gdbscripts/lab2-switch.gdb`
# and run the self-test in the guest from a program called "prog" (or edit the comm).

# The switch helper is assembly: keep expressions in C wherever the pc is.
set language c
# Hardware breakpoints: QEMU starts paused before the kernel is even decompressed.
hbreak schedule_fibril if $_streq($lx_current().comm, "prog")
continue

checkpoint 1. schedule() found runnable fibrils: schedule_fibril() is about to pick one
bt 8
lx-fibrils
delete

checkpoint 2. the swap helper: prev in %eax, next in %edx (regparm(3))
hbreak switch_to_fibril if $_streq($lx_current().comm, "prog")
continue
set $prev = (struct fibril *)$eax
set $next = (struct fibril *)$edx
printf "prev fibril %p (stack %p), next fibril %p (stack %p, saved sp 0x%08lx)\n", $prev, $prev->stack, $next, $next->stack, $next->sp
x/13i $pc
delete

checkpoint 3. push the callee-saved registers and the flags; save %esp in prev->sp
# Run to exact instructions with temporary hardware breakpoints rather than stepi: under
# a loaded host a single step can come back without having run its instruction, and
# everything after it would then describe the wrong moment. The five pushes and the
# save of %esp are 7 bytes; the swap, mov (%edx),%esp, is the 2 bytes after them.
set $swap_insn = (unsigned long)$pc + 7
thbreak *$swap_insn
continue
x/i $pc
printf "before the switch: esp=0x%08lx, task->stack=%p, prev->sp=0x%08lx\n", $esp, $lx_current().stack, $prev->sp
if (unsigned long)$esp - (unsigned long)$prev->stack < sizeof(init_stack)
  echo before the switch: esp inside prev's stack: yes\n
else
  echo before the switch: esp inside prev's stack: NO\n
end

checkpoint 4. one instruction further: THE switch (one mov into %esp)
thbreak *($swap_insn + 2)
continue
printf "after the switch:  esp=0x%08lx, task->stack=%p\n", $esp, $lx_current().stack
if (unsigned long)$esp - (unsigned long)$next->stack < sizeof(init_stack)
  echo after the switch: esp inside next's stack: yes\n
else
  echo after the switch: esp inside next's stack: NO\n
end
if $lx_current().stack == $prev->stack
  echo task->stack still names prev's stack (until __switch_to_fibril): yes\n
end

checkpoint 5. pop next's registers, __switch_to_fibril(), return into next's call chain
# next's frame: flags si di bx bp ret_addr; the pops are done once %esp is 20 higher.
set $resume = *(unsigned long *)((unsigned long)$esp + 20)
info symbol $resume
tbreak *$resume
continue
printf "arrived: pc=0x%08lx esp=0x%08lx task->stack=%p\n", $pc, $esp, $lx_current().stack
set $cur = $lx_current()
printf "task->fibril=%p (next %p), task->stack=%p (next's %p)\n", $cur.fibril, $next, $cur.stack, $next->stack
if $cur.stack == $next->stack && $cur.fibril == $next
  echo task->stack and task->fibril now name next: yes\n
end
bt 4
lx-kstack
lx-fibrils

checkpoint 6. the chain we left: a backtrace from prev's saved stack pointer
lx-fibril-bt $prev
checkpoint-end
