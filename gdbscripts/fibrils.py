# fibrils.py: GDB commands for the fibrils of a task (Lab 2 on).
#
# Loaded by `make gdb` after the kernel's lx- scripts, in the style of the kernel's
# scripts/gdb/linux/*.py. On trees without fibrils the commands say so and do nothing.
#
#   lx-fibrils [TASK]      the task's running fibril, its runnable list, and for each
#                          fibril its stack, saved %esp and state
#   lx-fibril-bt FIBRIL    backtrace of a switched-out fibril, from its saved %esp
#   lx-wake-target PTR     decode a wake target (Lab 3 on): a task_struct, or with
#                          bit 0 set a struct fibril, its task and where it waits
#
# A switched-out fibril's stack ends in the frame switch_to_fibril() pushed
# (struct inactive_task_frame, lowest address first):
#   flags, si, di, bx, bp, ret_addr
# so bp and ret_addr are the frame pointer and return address of its last call.

import gdb

from linux import cpus, lists, utils

WAKE_TARGET_FIBRIL = 1  # bit 0 of a wake target: the pointer names a struct fibril


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


def cpu_esp_if_current(task):
    """This CPU's %esp if task is the one running on it (GDB's selected CPU), else None."""
    if ulong(task) != ulong(cpus.get_current_task(cpus.get_current_cpu()).address):
        return None
    return ulong(gdb.parse_and_eval("$esp"))


def stack_owner(task, esp):
    """Which of the task's chains owns the stack that esp is on."""
    size = int(thread_size())
    for list_name in ("runnable_fibrils", "sleeping_fibrils"):
        if not has_field(task.dereference(), list_name):
            continue
        for fibril in fibrils_on(task.dereference(), list_name):
            if ulong(fibril["stack"]) <= esp < ulong(fibril["stack"]) + size:
                return "on the stack of fibril 0x{:08x}, from {}".format(
                    ulong(fibril.address), list_name)
    return "on no stack of this task's fibrils"


def describe(fibril, running):
    base = ulong(fibril["stack"])
    top = base + int(thread_size())
    state = int(fibril["state"])
    line = "  fibril 0x{:08x}  stack 0x{:08x}..0x{:08x}".format(ulong(fibril.address), base, top)
    if running:
        # task->fibril names the chain the task runs, but in the middle of a switch %esp
        # is already (or still) on another stack: say where %esp is, never assume it.
        esp = cpu_esp_if_current(fibril["task"])
        if esp is None:
            return line + "  task->fibril (the task is not running on this CPU)"
        if base <= esp < top:
            return line + "  RUNNING: %esp 0x{:08x} is on its stack".format(esp)
        return line + "  task->fibril, but %esp 0x{:08x} is NOT on its stack ({}: a switch is under way)".format(
            esp, stack_owner(fibril["task"], esp))
    sp = ulong(fibril["sp"])
    ret = ulong(saved_frame(fibril)["ret_addr"])
    where = gdb.execute("info symbol 0x{:x}".format(ret), to_string=True).strip()
    return line + "  saved sp 0x{:08x} ({}) state {}  resumes in {}".format(
        sp, "inside" if base <= sp < top else "OUTSIDE its stack", TASK_STATES.get(state, hex(state)),
        where.split(" in section")[0])


def has_field(value, name):
    return any(f.name == name for f in value.type.fields())


def fibrils_on(task, list_name):
    """The fibrils on one of the task's lists (linked through run_list)."""
    fibril_ptr = gdb.lookup_type("struct fibril").pointer()
    for node in lists.list_for_each(task[list_name]):
        yield utils.container_of(node, fibril_ptr, "run_list").dereference()


def write_list(task, list_name, title):
    gdb.write(title + ":\n")
    n = 0
    for fibril in fibrils_on(task, list_name):
        gdb.write(describe(fibril, False) + "\n")
        n += 1
    if n == 0:
        gdb.write("  (none)\n")


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
        write_list(task, "runnable_fibrils", "runnable (task->runnable_fibrils, head first)")
        if has_field(task, "sleeping_fibrils"):  # Lab 3 on
            write_list(task, "sleeping_fibrils",
                       "sleeping (task->sleeping_fibrils, until a wake-up moves them)")


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


class LxWakeTarget(gdb.Command):
    """Decode a wake target: lx-wake-target EXPRESSION (a void *, e.g. wq_entry->private).

Patch 3 (wake targets) stores task_wake_target(current) where a sleeper used to
store current: a struct task_struct *, or for a fibril of a task that uses
fibrils the struct fibril * with bit 0 set (both are at least 4-byte aligned,
so bit 0 of a real pointer is always 0)."""

    def __init__(self):
        super(LxWakeTarget, self).__init__("lx-wake-target", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        raw = ulong(gdb.parse_and_eval(arg))
        if not raw & WAKE_TARGET_FIBRIL:
            task = gdb.Value(raw).cast(gdb.lookup_type("struct task_struct").pointer()).dereference()
            gdb.write("wake target 0x{:08x}: bit 0 clear -> struct task_struct 0x{:08x}, "
                      "task {} (pid {}): a task-directed wake-up\n".format(
                          raw, raw, task["comm"].string(), int(task["pid"])))
            return
        if not has_fibrils():
            gdb.write("wake target 0x{:08x} has bit 0 set, but this kernel has no fibrils\n".format(raw))
            return
        addr = raw & ~WAKE_TARGET_FIBRIL
        fibril = gdb.Value(addr).cast(gdb.lookup_type("struct fibril").pointer()).dereference()
        task = fibril["task"].dereference()
        gdb.write("wake target 0x{:08x}: bit 0 set -> struct fibril 0x{:08x}\n".format(raw, addr))
        gdb.write("  of task {} (pid {}), saved state {}\n".format(
            task["comm"].string(), int(task["pid"]),
            TASK_STATES.get(int(fibril["state"]), hex(int(fibril["state"])))))
        where = "on no list (new, dead, or being switched)"
        if ulong(task["fibril"]) == addr:
            where = "running now (task->fibril)"
        else:
            for name in ("sleeping_fibrils", "runnable_fibrils"):
                if has_field(task, name) and any(
                        ulong(f.address) == addr for f in fibrils_on(task, name)):
                    where = "on task->" + name
        gdb.write("  " + where + "\n")


LxFibrils()
LxFibrilBt()
LxWakeTarget()
