# fibrils.py: GDB commands for the fibrils of a task (Lab 2 on).
#
# Loaded by `make gdb` after the kernel's lx- scripts, in the style of the kernel's
# scripts/gdb/linux/*.py. On trees without fibrils the commands say so and do nothing.
#
#   lx-fibrils [TASK]      the task's running fibril, its runnable list, and for each
#                          fibril its stack, saved %esp and state
#   lx-fibril-bt FIBRIL    backtrace of a switched-out fibril, from its saved %esp
#
# A switched-out fibril's stack ends in the frame switch_to_fibril() pushed
# (struct inactive_task_frame, lowest address first):
#   flags, si, di, bx, bp, ret_addr
# so bp and ret_addr are the frame pointer and return address of its last call.

import gdb

from linux import cpus, lists, utils



def thread_size():
    return gdb.parse_and_eval("sizeof(init_stack)")  # as in kstack.py

TASK_STATES = {0: "RUNNING", 1: "INTERRUPTIBLE", 2: "UNINTERRUPTIBLE", 0x102: "KILLABLE",
               0x402: "IDLE", 4: "STOPPED", 8: "TRACED"}


def has_fibrils():
    try:
        gdb.lookup_type("struct fibril")
        return True
    except gdb.error:
        return False


def task_of(arg):
    if not arg:
        return cpus.get_current_task(cpus.get_current_cpu())
    task = gdb.parse_and_eval(arg)
    return task.dereference() if task.type.code == gdb.TYPE_CODE_PTR else task


def ulong(v):
    return int(v.cast(gdb.lookup_type("unsigned long"))) & 0xffffffff


def saved_frame(fibril):
    frame_type = gdb.lookup_type("struct inactive_task_frame")
    return gdb.Value(ulong(fibril["sp"])).cast(frame_type.pointer()).dereference()


def describe(fibril, running):
    base = ulong(fibril["stack"])
    top = base + int(thread_size())
    state = int(fibril["state"])
    line = "  fibril 0x{:08x}  stack 0x{:08x}..0x{:08x}".format(ulong(fibril.address), base, top)
    if running:
        return line + "  RUNNING NOW (its %esp is the CPU's)"
    sp = ulong(fibril["sp"])
    ret = ulong(saved_frame(fibril)["ret_addr"])
    where = gdb.execute("info symbol 0x{:x}".format(ret), to_string=True).strip()
    return line + "  saved sp 0x{:08x} ({}) state {}  resumes in {}".format(
        sp, "inside" if base <= sp < top else "OUTSIDE its stack", TASK_STATES.get(state, hex(state)),
        where.split(" in section")[0])


class LxFibrils(gdb.Command):
    """List a task's fibrils: lx-fibrils [TASK-EXPRESSION] (default: current)."""

    def __init__(self):
        super(LxFibrils, self).__init__("lx-fibrils", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not has_fibrils():
            gdb.write("this kernel has no fibrils (struct fibril: Lab 2 on)\n")
            return
        task = task_of(arg)
        gdb.write("task {} (pid {}): {} fibril(s)\n".format(
            task["comm"].string(), int(task["pid"]), int(task["nr_fibrils"])))
        current = task["fibril"]
        if ulong(current) == 0:
            gdb.write("  never used fibrils (task->fibril == NULL)\n")
            return
        gdb.write("running:\n" + describe(current.dereference(), True) + "\n")
        gdb.write("runnable (task->runnable_fibrils, head first):\n")
        n = 0
        fibril_ptr = gdb.lookup_type("struct fibril").pointer()
        for node in lists.list_for_each(task["runnable_fibrils"]):
            fibril = utils.container_of(node, fibril_ptr, "run_list").dereference()
            gdb.write(describe(fibril, False) + "\n")
            n += 1
        if n == 0:
            gdb.write("  (none)\n")


class LxFibrilBt(gdb.Command):
    """Backtrace of a switched-out fibril: lx-fibril-bt FIBRIL-EXPRESSION.

Points GDB's registers at the fibril's saved frame for one `bt`, then puts them
back: the guest is stopped, so it never runs with the borrowed values."""

    def __init__(self):
        super(LxFibrilBt, self).__init__("lx-fibril-bt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        if not has_fibrils():
            gdb.write("this kernel has no fibrils\n")
            return
        fibril = gdb.parse_and_eval(arg)
        if fibril.type.code == gdb.TYPE_CODE_PTR:
            fibril = fibril.dereference()
        frame = saved_frame(fibril)
        sp_after_pops = ulong(fibril["sp"]) + gdb.lookup_type("struct inactive_task_frame").sizeof
        gdb.write("fibril 0x{:08x}: saved sp 0x{:08x}, bp 0x{:08x}, resumes at 0x{:08x}\n".format(
            ulong(fibril.address), ulong(fibril["sp"]), ulong(frame["bp"]), ulong(frame["ret_addr"])))
        saved = {r: ulong(gdb.parse_and_eval("$" + r)) for r in ("esp", "ebp", "eip")}
        try:
            gdb.execute("set $esp = 0x{:x}".format(sp_after_pops))
            gdb.execute("set $ebp = 0x{:x}".format(ulong(frame["bp"])))
            gdb.execute("set $eip = 0x{:x}".format(ulong(frame["ret_addr"])))
            gdb.execute("bt")
        finally:
            for r, v in saved.items():
                gdb.execute("set ${} = 0x{:x}".format(r, v))


LxFibrils()
LxFibrilBt()
