# Lab 0 walkthrough: stop on a system call's kernel entry and read the current
# task's kernel stack. Run by `make check` against a -S guest running
# gdbscripts/targets/lab0-syscall.c; its transcript must match lab0-syscall.expect.
# Live: `make qemu-gdb LAB=0` in one terminal, `make gdb LAB=0`, then `source` this.

# A hardware breakpoint: QEMU starts paused at the BIOS reset vector, before the
# kernel is even decompressed, so a software breakpoint would be overwritten.
# getppid is rare at boot; the condition keeps us on the lab program ("prog").
hbreak __ia32_sys_getppid if $_streq($lx_current().comm, "prog")
continue

checkpoint 1. where are we? a system call's kernel entry, on the task's kernel stack
bt
printf "current: comm=%s pid=%d\n", $lx_current().comm, $lx_current().pid

checkpoint 2. the kernel stack of the current task: task->stack .. +THREAD_SIZE
printf "THREAD_SIZE = %d\n", sizeof(init_stack)
lx-kstack

checkpoint 3. the user registers saved at the top of the stack (pt_regs); orig_ax is the system call number
set $regs = (struct pt_regs *)((unsigned long)$lx_current().stack + sizeof(init_stack) - 8 - sizeof(struct pt_regs))
printf "orig_ax = %ld (getppid is 64 on i386)\n", $regs->orig_ax
printf "user eip = 0x%08lx, user esp = 0x%08lx\n", $regs->ip, $regs->sp

checkpoint 4. the other tasks (lx-ps)
lx-ps
checkpoint-end
