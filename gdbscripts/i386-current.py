# i386-current.py: make the kernel's $lx_current() work on an i386 kernel.
#
# 6.1's scripts/gdb/linux/cpus.py finds the current task only when the target
# architecture's name contains "x86" (x86-64 is "i386:x86-64"); a 32-bit kernel's
# is plain "i386", so $lx_current() raises "not yet supported with this arch".
# On i386 `current` is the same per-CPU variable, current_task, so the x86 answer
# is right: we wrap get_current_task() to use it for "i386" too.

import gdb

from linux import cpus, utils

_get_current_task = cpus.get_current_task


def get_current_task(cpu):
    if utils.is_target_arch("i386") and not utils.is_target_arch("x86-64"):
        return cpus.per_cpu(gdb.parse_and_eval("&current_task"), cpu).dereference()
    return _get_current_task(cpu)


# cpus.LxCurrentFunc looks the name up in its module at each call.
cpus.get_current_task = get_current_task
