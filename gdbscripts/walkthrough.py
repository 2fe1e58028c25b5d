# walkthrough.py: numbered checkpoints for the GDB walkthroughs (gdbscripts/*.gdb).
#
# A walkthrough script marks each of its checkpoints with
#
#   checkpoint N. WHAT IT SHOWS
#
# which prints "=== N. WHAT IT SHOWS" and ends with "checkpoint-end". That is all it does
# in batch mode, the way make check runs the scripts. In step mode, the way
# `make walkthrough` runs them for a lecture, each checkpoint after the first first waits
# for Enter, so that the class can read what the last one printed:
#
#   (gdb) set walkthrough-step on
#   (gdb) source gdbscripts/lab2-switch.gdb
#
# Typing q instead of Enter stops the script there, and GDB is yours.

import gdb


class WalkthroughStep(gdb.Parameter):
    """Pause before each walkthrough checkpoint until Enter (make walkthrough)."""

    set_doc = "Set whether walkthrough checkpoints wait for Enter."
    show_doc = "Show whether walkthrough checkpoints wait for Enter."

    def __init__(self):
        super().__init__("walkthrough-step", gdb.COMMAND_SUPPORT, gdb.PARAM_BOOLEAN)
        self.value = False

    def get_show_string(self, svalue):
        return "Walkthrough step mode is " + svalue + "."


step_mode = WalkthroughStep()
# The checkpoint the script is in (its number as written), None before the first.
current = None


def wait_for_enter(prompt):
    """Step mode: ask, read one line; q stops the script. EOF counts as Enter."""
    gdb.write(prompt)
    gdb.flush()
    try:
        answer = input()
    except EOFError:
        answer = ""
    if answer.strip().lower() == "q":
        raise gdb.GdbError("walkthrough stopped after checkpoint %s" % current)


class Checkpoint(gdb.Command):
    """Start a walkthrough checkpoint: checkpoint N. WHAT IT SHOWS"""

    def __init__(self):
        super().__init__("checkpoint", gdb.COMMAND_SUPPORT)

    def invoke(self, arg, from_tty):
        global current
        number = arg.split(".", 1)[0].strip()
        if step_mode.value and current is not None:
            wait_for_enter("--- end of checkpoint %s. Enter: on to checkpoint %s (q: stop) --- "
                           % (current, number))
        current = number
        gdb.write("\n=== %s\n" % arg)


class CheckpointEnd(gdb.Command):
    """End a walkthrough: the last checkpoint is over."""

    def __init__(self):
        super().__init__("checkpoint-end", gdb.COMMAND_SUPPORT)

    def invoke(self, arg, from_tty):
        global current
        if step_mode.value:
            gdb.write("\n--- end of checkpoint %s: the walkthrough is over ---\n" % current)
        current = None


Checkpoint()
CheckpointEnd()
