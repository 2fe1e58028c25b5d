#!/usr/bin/env python3
"""The walkthroughs' constants are the kernel's: check gdbscripts/constants.py.

  vm/check/gdb-constants.py SRC COMMIT...

SRC is the kernel git repository (build/src), each COMMIT the tree of a kernel this run
built. Every macro of gdbscripts/constants.py is looked for in the file it names, in
each tree that has that file's definition (the asys system calls exist from Lab 4 on):
"#define NAME VALUE", or for a system call the syscall_32.tbl line "VALUE i386 NAME".
Prints one line a constant; exit 1 when one differs from every tree's, or no tree has it.
"""
import re
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "gdbscripts"))
from constants import MACROS  # noqa: E402


def show(src, commit, path):
    r = subprocess.run(["git", "-C", src, "show", "%s:%s" % (commit, path)], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else ""


def defined(text, name, how):
    """The value the file gives name, or None."""
    if how == "syscall":
        m = re.search(r"^(\d+)\s+i386\s+%s\s" % re.escape(name[3:]), text, re.M)
    else:
        m = re.search(r"^#define\s+%s\s+(0[xX][0-9a-fA-F]+|\d+)\b" % re.escape(name), text, re.M)
    return int(m.group(1), 0) if m else None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, commits = sys.argv[1], sys.argv[2:]
    bad = 0
    for name, (value, path, how) in sorted(MACROS.items()):
        seen = {c[:10]: defined(show(src, c, path), name, how) for c in commits}
        found = {c: v for c, v in seen.items() if v is not None}
        wrong = {c: v for c, v in found.items() if v != value}
        if not found or wrong:
            bad = 1
            print("  gdb-constant %s FAIL: constants.py says %#x; %s: %s" % (
                name, value, path, ", ".join("%s gives %#x" % cv for cv in wrong.items()) or "no tree defines it"))
        else:
            print("  gdb-constant %s OK (%#x, as %s says in %d of %d trees)" % (name, value, path, len(found), len(commits)))
    sys.exit(bad)


if __name__ == "__main__":
    main()
