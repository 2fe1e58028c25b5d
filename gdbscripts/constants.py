# constants.py: the numbers the walkthroughs compare against, in one place.
#
# A kernel's debug info has its types and variables, not its #defines. So the few
# macros the walkthroughs need are written here once, each with the file of the tree
# that defines it, and `make check` compares every one with that file in each lab's
# tree (vm/check/gdb-constants.py): a copy that goes stale fails there, not in a lecture.
# What the debug info does have is read from it: THREAD_SIZE is sizeof(init_stack).
#
# Loaded by `make gdb` before the other gdbscripts/*.py (alphabetical order). Each
# becomes a GDB convenience variable ($TASK_DEAD) for the .gdb scripts, and stays a
# Python name here for the .py commands (from constants import ...).

# name: (value, where the tree defines it, how: "define" or "syscall")
MACROS = {
    "TASK_DEAD": (0x80, "include/linux/sched.h", "define"),
    "STACK_END_MAGIC": (0x57AC6E9D, "include/uapi/linux/magic.h", "define"),
    "SA_RESTART": (0x10000000, "include/uapi/asm-generic/signal-defs.h", "define"),
    "ERESTARTSYS": (512, "include/linux/errno.h", "define"),
    "NR_asys_submit": (451, "arch/x86/entry/syscalls/syscall_32.tbl", "syscall"),
    "NR_asys_await_completion": (452, "arch/x86/entry/syscalls/syscall_32.tbl", "syscall"),
}

try:
    import gdb
except ImportError:  # read by vm/check/gdb-constants.py outside GDB
    gdb = None

if gdb is not None:
    for _name, (_value, _where, _how) in MACROS.items():
        gdb.set_convenience_variable(_name, _value)
        globals()[_name] = _value
    try:
        THREAD_SIZE = int(gdb.parse_and_eval("sizeof(init_stack)"))
        gdb.set_convenience_variable("THREAD_SIZE", THREAD_SIZE)
    except gdb.error:  # no kernel loaded yet: the scripts that need it load one first
        THREAD_SIZE = None
