#!/usr/bin/env python3
"""handout-gdb.py: a handout's GDB steps are its walkthrough script's, word for word.

  handout-gdb.py NAME       print the steps block of gdbscripts/NAME.gdb, for a handout
  handout-gdb.py --check    every labs/labN/README.md block must be what NAME.gdb gives now
  handout-gdb.py --write    rewrite every block from its script

A handout marks its block with
  <!-- gdb steps: gdbscripts/NAME.gdb (vm/check/handout-gdb.py writes it; make check compares) -->
  ...
  <!-- end gdb steps -->
Inside are the script's commands as one types them, "(gdb) " before each, its comments
as "#" lines, and a line per checkpoint. make check runs the same script (gdb-check.sh),
so steps typed from the handout are steps that work.
"""
import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN = re.compile(r"<!-- gdb steps: gdbscripts/([\w-]+)\.gdb .*?-->\n")
END = "<!-- end gdb steps -->"


def steps(name):
    out = []
    depth = 0  # inside if/while ... end: continuation lines, indented
    with open(os.path.join(TOP, "gdbscripts", name + ".gdb"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    # the script's own header (what it is, how make check runs it) is not a step
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if text == "checkpoint-end":
            continue
        m = re.match(r"checkpoint (\d+)\.\s*(.*)", text)
        if m:
            out.append("")
            out.append(f"    # --- checkpoint {m.group(1)}: {m.group(2)}")
            continue
        if text.startswith("#"):
            out.append("    " + text)
            continue
        # inside if/while ... end GDB prompts with ">", for the "end" too
        if text == "end":
            depth -= 1
        out.append("    " + ("(gdb) " if depth == 0 and text != "end" else ">") + text)
        if re.match(r"(if|while|define|document|commands)\b", text):
            depth += 1
    while out and out[0] == "":
        out.pop(0)
    return "\n".join(out) + "\n"


def block(name):
    return (f"<!-- gdb steps: gdbscripts/{name}.gdb (vm/check/handout-gdb.py writes it; make check compares) -->\n"
            f"\n{steps(name)}\n{END}")


def handouts(write):
    stale = 0
    for readme in sorted(glob.glob(os.path.join(TOP, "labs", "lab*", "README.md"))):
        with open(readme, encoding="utf-8") as f:
            text = f.read()
        pos, new = 0, ""
        for m in BEGIN.finditer(text):
            end = text.index(END, m.end()) + len(END)
            fresh = block(m.group(1))
            if text[m.start():end] != fresh:
                stale += 1
                print(f"{os.path.relpath(readme, TOP)}: the GDB steps differ from gdbscripts/{m.group(1)}.gdb"
                      + ("" if write else " (vm/check/handout-gdb.py --write)"))
            new += text[pos:m.start()] + fresh
            pos = end
        new += text[pos:]
        if write and new != text:
            with open(readme, "w", encoding="utf-8") as f:
                f.write(new)
    return stale


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] in ("--check", "--write"):
        n = handouts(sys.argv[1] == "--write")
        if sys.argv[1] == "--check":
            print(f"handout GDB steps: {'all match their scripts' if n == 0 else f'{n} block(s) stale'}")
            sys.exit(1 if n else 0)
    elif len(sys.argv) == 2:
        print(block(sys.argv[1]))
    else:
        sys.exit(__doc__)
