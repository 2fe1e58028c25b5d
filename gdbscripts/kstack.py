# kstack.py: GDB commands for looking at a task's kernel stack on i386.
#
# Loaded by `make gdb` after the kernel's own lx- scripts (vmlinux-gdb.py), whose
# helpers it uses. In the style of the kernel's scripts/gdb/linux/*.py.
#
#   lx-kstack [TASK]   where TASK's kernel stack lies, where %esp is in it, where its
#                      user registers (pt_regs) sit, and what the CPU believes the top
#                      of the current stack is (TSS sp1, cpu_current_top_of_stack).

import gdb

from linux import cpus

# i386 without VM86: the entry code leaves 8 unused bytes above pt_regs
# (arch/x86/include/asm/thread_info.h, TOP_OF_KERNEL_STACK_PADDING).
TOP_OF_KERNEL_STACK_PADDING = 8


def thread_size():
    # init_stack is declared as unsigned long[THREAD_SIZE / sizeof(long)]:
    # its size is THREAD_SIZE, with no macro debug info needed.
    return gdb.parse_and_eval("sizeof(init_stack)")


def stack_bounds(task):
    base = int(task["stack"].cast(gdb.lookup_type("unsigned long")))
    return base, base + int(thread_size())


def pt_regs_of(task):
    _, top = stack_bounds(task)
    regs_type = gdb.lookup_type("struct pt_regs")
    addr = top - TOP_OF_KERNEL_STACK_PADDING - regs_type.sizeof
    return addr, gdb.Value(addr).cast(regs_type.pointer()).dereference()


class LxKstack(gdb.Command):
    """Show a task's kernel stack: lx-kstack [TASK-EXPRESSION] (default: current)."""

    def __init__(self):
        super(LxKstack, self).__init__("lx-kstack", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = cpus.get_current_cpu()
        current = cpus.get_current_task(cpu)  # a struct task_struct value
        task = gdb.parse_and_eval(arg) if arg else current
        if task.type.code == gdb.TYPE_CODE_PTR:
            task = task.dereference()
        is_current = int(task.address) == int(current.address)
        base, top = stack_bounds(task)
        if is_current:
            sp = int(gdb.parse_and_eval("$sp").cast(gdb.lookup_type("unsigned long")))
        else:
            sp = int(task["thread"]["sp"])
        regs_addr, regs = pt_regs_of(task)

        gdb.write("task {} (pid {}){}\n".format(task["comm"].string(), int(task["pid"]),
                                                " [running on cpu {}]".format(cpu) if is_current else ""))
        gdb.write("  task->stack     0x{:08x} .. 0x{:08x}  (THREAD_SIZE {})\n".format(base, top, top - base))
        gdb.write("  {:<15} 0x{:08x}  ({} bytes in use)\n".format("esp" if is_current else "thread.sp", sp, top - sp))
        inside = base <= sp < top
        gdb.write("  sp inside task->stack: {}\n".format("yes" if inside else "NO"))
        gdb.write("  pt_regs         0x{:08x}  (user eip 0x{:08x}, esp 0x{:08x}, orig_ax {})\n".format(
            regs_addr, int(regs["ip"]) & 0xffffffff, int(regs["sp"]) & 0xffffffff, int(regs["orig_ax"])))
        gdb.write("  thread.sp0      0x{:08x}\n".format(int(task["thread"]["sp0"]) & 0xffffffff))
        if is_current:
            tss = cpus.per_cpu(gdb.parse_and_eval("&cpu_tss_rw"), cpu)
            top_of_stack = cpus.per_cpu(gdb.parse_and_eval("&cpu_current_top_of_stack"), cpu)
            gdb.write("  TSS sp1         0x{:08x}  (where SYSENTER finds this task's stack)\n".format(
                int(tss["x86_tss"]["sp1"]) & 0xffffffff))
            gdb.write("  cpu_current_top_of_stack 0x{:08x}\n".format(int(top_of_stack) & 0xffffffff))


LxKstack()
