#!/usr/bin/env python3
"""The one reader of a lab's tests.conf (and of its hidden challenge/challenge.conf).

    vm/testsconf.py LAB_DIR           every line, checked, as records (below)
    vm/testsconf.py LAB_DIR KIND      the records of one kind, without the kind
    vm/testsconf.py LAB_DIR max-points  the lab's maximum for a hand-in (max_points())

A record is one line of tab-separated fields, comments and blank lines gone, in the
file's order, the challenge's lines last:

    smp           BOOT...             boots: N (-smp N) or N+MODE, space-separated
    start-smp     BOOT...             make check's start-tree boots (default: smp's)
    mode          MODE  ARG...        kernel arguments of the boots N+MODE
    disk          SIZE                a fresh ext4 disk a boot (vm/boot/disk.sh)
    start-build   OBJECT              the start tree is checked as this object alone
    handin-paths  PREFIX...           what a hand-in may change
    deliverable   FILE                written work, labs/labN/FILE its template
    leaderboard   PROGRAM RESULT...   figures of a hand-in's kernel for a leaderboard:
                                      labs/labN/bench/PROGRAM.c run under -icount, its
                                      "RESULT NAME=value" lines of these NAMEs, lower
                                      is better (guest instructions)
    test|exercise|gdb|panic|host  NAME  POINTS  FLAG   FLAG: "" or "exercise"
    challenge     NAME  POINTS  ""    a hidden test (challenge/challenge.conf)

A line the grader does not know, a test without its points or its source, a boot with
no mode line: "error: FILE: why" on stderr and exit 2, so that nothing reads a file the
grader cannot trust (a line skipped would be a test nobody runs). Every script that needs
tests.conf asks this reader; make grade-all's columns come from columns() below.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it

GRADED = ("test", "exercise", "gdb", "panic", "host")
LISTS = ("smp", "start-smp", "handin-paths")


class ConfError(Exception):
    pass


def _lines(path):
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith("#"):
                yield words


def _expected_panic(lab_dir, name):
    try:
        with open(os.path.join(lab_dir, "tests", name + ".c")) as f:
            return any(line.startswith(" * Expected panic: ") and line.split(":", 1)[1].strip() for line in f)
    except OSError:
        return False


def records(lab_dir):
    """The checked records of lab_dir's tests.conf and challenge.conf, as lists of fields."""
    conf = os.path.join(lab_dir, "tests.conf")
    hidden = os.path.join(lab_dir, "challenge", "challenge.conf")
    if not os.path.isfile(conf):
        raise ConfError("no %s" % conf)
    out, names = [], set()
    for w in _lines(conf):
        kind, args = w[0], w[1:]

        def need(ok, why):
            if not ok:
                raise ConfError("%s: '%s': %s" % (conf, " ".join(w), why))
        if kind in LISTS:
            need(args, "names nothing")
            out.append([kind, " ".join(args)])
        elif kind == "mode":
            need(len(args) >= 2, "a mode needs a name and its kernel arguments")
            out.append([kind, args[0], " ".join(args[1:])])
        elif kind in ("disk", "start-build"):
            need(len(args) == 1, "one value")
            out.append([kind, args[0]])
        elif kind == "deliverable":
            need(len(args) == 1, "one file")
            need(os.path.isfile(os.path.join(lab_dir, args[0])), "no template %s" % os.path.join(lab_dir, args[0]))
            out.append([kind, args[0]])
        elif kind == "leaderboard":
            need(len(args) >= 2, "a benchmark program and the RESULT names it reports")
            need(os.path.isfile(os.path.join(lab_dir, "bench", args[0] + ".c")),
                 "no %s" % os.path.join(lab_dir, "bench", args[0] + ".c"))
            out.append([kind, args[0], " ".join(args[1:])])
        elif kind in GRADED:
            need(len(args) >= 2 and args[1].isdigit(), "'%s %s' has no points" % (kind, args[0] if args else ""))
            flag = args[2] if len(args) > 2 else ""
            need(len(args) <= 3 and (flag == "" or (flag == "exercise" and kind in ("host", "panic"))),
                 "unknown flag")
            if kind == "host":
                need(os.path.isfile(os.path.join(lab_dir, "host", args[0] + ".sh")),
                     "no %s" % os.path.join(lab_dir, "host", args[0] + ".sh"))
            if kind == "panic":
                need(_expected_panic(lab_dir, args[0]), "panic test %s: its source names no 'Expected panic: ERE'" % args[0])
            names.add(args[0])
            out.append([kind, args[0], args[1], flag])
        elif kind == "challenge":
            raise ConfError("%s: a challenge line: a challenge's tests are hidden, its lines go in %s"
                            % (conf, os.path.relpath(hidden, lab_dir)))
        else:
            raise ConfError("%s: unknown line '%s': a line the grader ignored would be a test nobody runs"
                            % (conf, " ".join(w)))
    if os.path.isfile(hidden):
        for w in _lines(hidden):
            if w[0] != "challenge":
                raise ConfError("%s: only 'challenge NAME POINTS' lines: %s" % (hidden, " ".join(w)))
            if len(w) != 3 or not w[2].isdigit():
                raise ConfError("%s: 'challenge %s' has no points" % (hidden, w[1] if len(w) > 1 else ""))
            if not os.path.isfile(os.path.join(lab_dir, "challenge", w[1] + ".c")):
                raise ConfError("%s: no %s" % (hidden, os.path.join(lab_dir, "challenge", w[1] + ".c")))
            if w[1] in names:
                raise ConfError("%s: %s is also a name in %s" % (hidden, w[1], conf))
            if any(r[0] == "start-build" for r in out):
                raise ConfError("%s: a lab whose start tree is one object (%s: start-build) cannot show a "
                                "hidden test failing there" % (hidden, conf))
            out.append(["challenge", w[1], w[2], ""])
    _check_boots(conf, out)
    return out


def _check_boots(conf, out):
    smp = [r[1].split() for r in out if r[0] == "smp"]
    if not smp or not smp[0]:
        raise ConfError("%s has no smp line: its guest tests would never run" % conf)
    boots = smp[-1]
    modes = {r[1] for r in out if r[0] == "mode"}
    for boot in boots:
        m = re.fullmatch(r"[0-9]+(?:\+([a-z0-9_-]+))?", boot)
        if not m:
            raise ConfError("%s: boot '%s' is neither N nor N+MODE" % (conf, boot))
        if m.group(1) and m.group(1) not in modes:
            raise ConfError("%s: boot '%s' has no 'mode %s' line" % (conf, boot, m.group(1)))
    for r in out:
        if r[0] == "start-smp":
            for boot in r[1].split():
                if boot not in boots:
                    raise ConfError("%s: start-smp %s is not a boot of its smp line (%s)" % (conf, boot, " ".join(boots)))


def columns(lab_dir):
    """make grade-all's columns: (tests, deliverables). Every test, exercise, panic test and
    host check by name and every GDB walkthrough as gdb:NAME, in the file's order, then the
    hidden tests as challenge:NAME (their points are the row's "challenge", never its
    "total"); every deliverable FILE, and FILE:builds, FILE:run and FILE:run-start after a
    .c one (vm/grade/batch/grade-one.sh builds it and runs it in a guest of the hand-in's
    kernel and in one of the lab's start kernel)."""
    tests, deliverables = [], []
    for r in records(lab_dir):
        if r[0] in ("test", "exercise", "panic", "host"):
            tests.append(r[1])
        elif r[0] in ("gdb", "challenge"):
            tests.append(r[0] + ":" + r[1])
        elif r[0] == "deliverable":
            deliverables.append(r[1])
            if r[1].endswith(".c"):
                deliverables += [r[1] + ":builds", r[1] + ":run", r[1] + ":run-start"]
    return tests, deliverables


def max_points(lab_dir):
    """A hand-in's maximum (what make grade prints after the slash): each test, exercise,
    host check and panic test once a boot of the smp line, each GDB walkthrough once; the
    optional challenge's hidden tests are apart."""
    recs = records(lab_dir)
    boots = len([r for r in recs if r[0] == "smp"][-1][1].split())
    return sum(int(r[2]) * (boots if r[0] != "gdb" else 1) for r in recs if r[0] in GRADED)


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: vm/testsconf.py LAB_DIR [KIND]", file=sys.stderr)
        return 2
    try:
        recs = records(argv[1])
    except (ConfError, OSError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if len(argv) == 3 and argv[2] == "max-points":
        print(max_points(argv[1]))
        return 0
    for r in recs:
        if len(argv) == 2:
            print("\t".join(r))
        elif r[0] == argv[2]:
            print("\t".join(r[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
