"""What make grade-all's rows have a column for, read from a lab's tests.conf.

columns(conf) gives (tests, deliverables): every test, exercise, panic test and host check
by name and every GDB walkthrough as gdb:NAME, in the file's order; every deliverable
FILE, and FILE:builds, FILE:run and FILE:run-start after a .c one
(vm/grade/batch/grade-one.sh builds it and runs it in a guest of the hand-in's kernel and
in one of the lab's start kernel). An optional challenge's hidden tests, from
challenge/challenge.conf beside tests.conf, come last as challenge:NAME: their points
are the row's "challenge", never its "total".
"""
import os


def columns(conf):
    tests, deliverables = [], []
    for line in open(conf):
        f = line.split()
        if len(f) >= 3 and f[0] in ("test", "exercise", "panic", "host"):
            tests.append(f[1])
        elif len(f) >= 3 and f[0] == "gdb":
            tests.append("gdb:" + f[1])
        elif len(f) >= 2 and f[0] == "deliverable":
            deliverables.append(f[1])
            if f[1].endswith(".c"):
                deliverables += [f[1] + ":builds", f[1] + ":run", f[1] + ":run-start"]
    hidden = os.path.join(os.path.dirname(conf), "challenge", "challenge.conf")
    if os.path.exists(hidden):
        for line in open(hidden):
            f = line.split()
            if len(f) >= 3 and f[0] == "challenge":
                tests.append("challenge:" + f[1])
    return tests, deliverables
