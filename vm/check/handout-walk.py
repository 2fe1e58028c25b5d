#!/usr/bin/env python3
"""vm/check/handout-walk.py EDITION LAB: what lab LAB's handout tells a student to run, and
the paths it names, hold in EDITION, a student edition made with make release SOLVED=LAB
(the one students have while they work on lab LAB).

  - every repository path the handout names in backquotes (labs/, docs/, vm/, gdbscripts/,
    patches/, solutions/; a * is a glob) exists in the edition;
  - a path under build/ is one the student's own commands make (build/labN/..., the
    student's trees and builds; build/hints, build/docs, build/debs, build/demo,
    build/bench, build/disk.img); a path under results/ is one make grade
    writes (results/grade/...);
  - every "make TARGET" a command line of the handout runs (an indented or fenced line,
    a numbered step that starts with it, or an inline `make ...` after "run", "type",
    "use", "with" or "then") is a target of the edition's Makefile, and none of them
    needs the reference solution of lab LAB or later, which the edition does not have:
    make trinity and make kselftest; make run-guest (of lab LAB= or this
    one), make fuzz and make stress (Lab 4's) without MINE=1, which boot the reference
    kernel; make check without SUBMISSION= (it skips the labs it has no solution of).
    make demo, make walkthrough and make bench run what the edition has
    (vm/boot/demo.sh, vm/boot/walkthrough.sh, vm/bench/bench.sh: the student's own tree);
  - a line that says the command or path is the instructor's ("instructor", "once the
    lab is due", "after the deadline") is not the student's, and is not checked.
Prints each finding as "labs/labN/README.md:LINE: what"; exit 1 when there is one.
"""
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it

REPO_PATH = re.compile(r"`((?:labs|docs|vm|gdbscripts|patches|solutions|results|build)/[^`\s]*)`")
# an inline `make ...` the prose tells the student to run (not one it talks about)
INLINE_MAKE = re.compile(r"(?:\b(?:[Rr]un|[Tt]ype|[Uu]se|[Ww]ith|[Tt]hen)\s+|^\s*\d+\.\s+)`(make [^`]*)`")
NOT_STUDENTS = re.compile(r"instructor|once the lab is due|after the deadline|after its deadline", re.I)
NEEDS_REFERENCE = {"trinity", "kselftest"}
# target: the lab whose reference kernel it boots without MINE=1 (None: LAB=, or the
# handout's lab)
NEEDS_MINE = {"run-guest": None, "fuzz": 4, "stress": 4}


def targets(makefile):
    with open(makefile) as f:
        return {m.group(1) for m in re.finditer(r"^([a-z][a-z-]*):", f.read(), re.M)}


def commands(lines):
    """(line number, command) of every make command the handout runs."""
    fenced = False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        code = fenced or line.startswith("    ") or line.startswith("\t")
        # a command line, perhaps after VAR=value words: QEMU_EXTRA="..." make run-guest ...
        m = re.match(r'^\s*(?:[A-Z_]+=(?:"[^"]*"|\S+)\s+)*(make\s.*)$', line) if code else None
        if m:
            yield n, m.group(1).split("#", 1)[0].strip()
            continue
        seen = set()
        for m in INLINE_MAKE.finditer(line):
            seen.add(m.group(1))
            yield n, m.group(1)
        # a command that boots a kernel is one to run wherever the prose names it
        # (make run-guest only with its PROG=: without one it is the target's name, not a command)
        for m in re.finditer(r"`((?:[A-Z_]+=\S+\s+)*make (?:run-guest [^`]*PROG=|fuzz|stress)\b[^`]*)`", line):
            cmd = re.sub(r"^(?:[A-Z_]+=\S+\s+)*", "", m.group(1))
            if cmd not in seen:
                yield n, cmd


def walk(edition, lab):
    handout = os.path.join(edition, "labs", "lab%s" % lab, "README.md")
    rel = os.path.relpath(handout, edition)
    with open(handout) as f:
        lines = f.read().splitlines()
    known = targets(os.path.join(edition, "Makefile"))
    out = []
    for n, line in enumerate(lines, 1):
        if NOT_STUDENTS.search(line):
            continue
        for path in REPO_PATH.findall(line):
            path = path.rstrip(".,:;)")
            top = path.split("/", 1)[0]
            if top == "build":
                if not re.match(r"build/(lab[0-9]+|hints|docs|debs|demo|bench|disk\.img)(/|$)", path):
                    out.append("%s:%d: `%s`: no command of a student's makes it" % (rel, n, path))
                continue
            if top == "results":
                if not path.startswith("results/grade/"):
                    out.append("%s:%d: `%s`: make check writes it, the instructor's; a student's make grade "
                               "writes results/grade/" % (rel, n, path))
                continue
            if not glob.glob(os.path.join(edition, path)):
                out.append("%s:%d: `%s` is not in a SOLVED=%s edition" % (rel, n, path, lab))
    for n, cmd in commands(lines):
        if NOT_STUDENTS.search(lines[n - 1]):
            continue
        words = cmd.split()
        target = words[1] if len(words) > 1 and "=" not in words[1] else "(none)"
        args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if target not in known:
            out.append("%s:%d: `%s`: the Makefile has no target %s" % (rel, n, cmd, target))
        elif target in NEEDS_REFERENCE:
            out.append("%s:%d: `%s` needs the reference solution, which a SOLVED=%s edition does not have"
                       % (rel, n, cmd, lab))
        elif (target in NEEDS_MINE and args.get("MINE") != "1"
              and int(NEEDS_MINE[target] or args.get("LAB", lab)) >= int(lab)):
            out.append("%s:%d: `%s` boots the reference kernel of lab %s, which a SOLVED=%s edition does not "
                       "have (MINE=1 boots yours)" % (rel, n, cmd, NEEDS_MINE[target] or args.get("LAB", lab), lab))
        elif target == "check" and "SUBMISSION" not in args:
            out.append("%s:%d: `%s` grades the reference solution, which a SOLVED=%s edition does not have "
                       "(make grade grades yours)" % (rel, n, cmd, lab))
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[0])
    found = walk(argv[1], argv[2])
    for line in found:
        print(line)
    if not found:
        print("lab %s: every command and path the handout gives a student holds in a SOLVED=%s edition"
              % (argv[2], argv[2]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
