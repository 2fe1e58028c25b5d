#!/usr/bin/env python3
"""A handout's contract box: what a lab's grader depends on, written from the files the
grader reads, so that it cannot drift from them.

    vm/check/contract.py LAB        print lab LAB's box
    vm/check/contract.py --write    put every lab's box into its handout (between the
                                    markers; a handout without them gets the box before
                                    its first "## Exercise" heading)
    vm/check/contract.py --check    exit 1 when a handout's box is not the one its lab's
                                    files give (make check runs this)

The box says, from:
  - tests.conf (vm/testsconf.py): the paths a hand-in may change (handin-paths, plus
    handin/ for written work; never build files, scripts/ or the kernel self-test, as
    vm/lib.sh handin_path_allowed says), the written deliverables, the tests by name;
  - each GDB walkthrough, gdbscripts/NAME.gdb and NAME.expect: the functions it breaks
    on and the names it reads there (parameters and locals), and the frames its
    transcript must show in a backtrace ("in FUNC" lines of the .expect);
  - the lab's test sources: every " * Contract: ..." line of a header comment, which is
    how a test states an order of errors or a rule only its source would show.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "vm"))
from testsconf import records  # noqa: E402

BEGIN = "<!-- contract: written by vm/check/contract.py %s from tests.conf, the tests and gdbscripts/; make check compares -->"
END = "<!-- end contract -->"
BREAK = re.compile(r"^\s*(?:t?h?break|tbreak|b)\s+([A-Za-z_][A-Za-z_0-9]*)")
IDENT = re.compile(r"(?<![\w$.>])([a-z_][a-z_0-9]*)\b(?!\s*\()")
NOT_NAMES = {"if", "else", "end", "sizeof", "unsigned", "long", "int", "char", "struct", "void"}


def code_of(line):
    """A GDB line without its string literals and comment."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    line = line.split("#", 1)[0]
    # types and sizes are not names of the function broken on
    return re.sub(r"\bstruct\s+\w+|\bsizeof\s*\(\s*\w+\s*\)", " ", line)


def walkthrough(name):
    """(breaks: [(function, [names read])], frames: [function]) of gdbscripts/NAME."""
    breaks, current = [], None
    in_python = False
    with open(os.path.join(TOP, "gdbscripts", name + ".gdb")) as f:
        for raw in f:
            # a python ... end block names Python's variables, not the kernel's
            if re.match(r"^\s*python\s*$", raw):
                in_python = True
                continue
            if in_python:
                in_python = not re.match(r"^\s*end\s*$", raw)
                continue
            line = code_of(raw)
            m = BREAK.match(line)
            if m:
                current = (m.group(1), [])
                breaks.append(current)
                # a condition after "if" reads names of the function broken on
                line = line.split(" if ", 1)[1] if " if " in line else ""
            elif re.match(r"^\s*(delete|checkpoint|continue)\b", line):
                if not line.strip().startswith("continue"):
                    current = None
                continue
            if current is None:
                continue
            words = line.strip().split(None, 1)
            if not words or words[0] not in ("printf", "print", "p", "if", "set", "output", "x", "while"):
                continue
            body = words[1] if len(words) > 1 else ""
            if words[0] == "printf":
                body = body.split(",", 1)[1] if "," in body else ""
            if words[0] == "set":  # set $var = EXPR: the expression
                body = body.split("=", 1)[1] if "=" in body else ""
            for ident in IDENT.findall(body):
                if ident not in NOT_NAMES and not ident.isupper() and ident not in current[1]:
                    current[1].append(ident)
    frames = []
    expect = os.path.join(TOP, "gdbscripts", name + ".expect")
    if os.path.exists(expect):
        with open(expect) as f:
            for line in f:
                m = re.match(r"^in ([A-Za-z_][A-Za-z_0-9]*)", line)
                if m and m.group(1) not in frames:
                    frames.append(m.group(1))
    return breaks, frames


def test_contracts(lab_dir, names):
    """{test: [its ' * Contract: ' sentences]} of the lab's test sources, in tests.conf's order."""
    out = {}
    for name in names:
        path = os.path.join(lab_dir, "tests", name + ".c")
        if not os.path.exists(path):
            continue
        lines, on = [], False
        with open(path) as f:
            for line in f:
                if line.startswith(" * Contract: "):
                    lines.append(line[len(" * Contract: "):].strip())
                    on = True
                elif on and line.startswith(" *   "):
                    lines[-1] += " " + line.strip()[1:].strip()
                else:
                    on = False
        if lines:
            out[name] = lines
    return out


def code(names):
    return ", ".join("`%s`" % n for n in names)


def box(lab):
    lab_dir = os.path.join(TOP, "labs", "lab%s" % lab)
    recs = records(lab_dir)
    paths = " ".join(r[1] for r in recs if r[0] == "handin-paths").split()
    written = [r[1] for r in recs if r[0] == "deliverable"]
    tests = [r[1] for r in recs if r[0] in ("test", "panic", "host") and r[3] != "exercise"]
    exercises = [r[1] for r in recs if r[0] == "exercise" or (r[0] in ("panic", "host") and r[3] == "exercise")]
    gdbs = [r[1] for r in recs if r[0] == "gdb"]
    out = [BEGIN % lab, "## Contract", "",
           "What the grader depends on: keep to it, and your hand-in is graded on its behaviour alone.",
           ""]
    if paths:
        out.append("- **A hand-in may change** files under %s, and `handin/` (your written work, which "
                   "`make handin` packs). Never a `Makefile`, `Kbuild` or `Kconfig` file, `scripts/` or "
                   "`kernel/fibril_selftest.c`: a hand-in that changes anything else is refused, every row at 0."
                   % code(paths))
    else:
        out.append("- **A hand-in may change** nothing but `handin/` (your written work): this lab grades "
                   "the reference tree.")
    if written:
        out.append("- **Written work** (`make handin` packs it as `handin/FILE`, people grade it): %s." % code(written))
    rule = ("A test in the guest passes when it exits 0 and its own summary line, with this boot's nonce, "
            "counts no failed check")
    panics = [r[1] for r in recs if r[0] == "panic"]
    hosts = [r[1] for r in recs if r[0] == "host"]
    if panics:
        rule += "; a panic test (%s) when the kernel panics as its source's \"Expected panic:\" line says" % code(panics)
    if hosts:
        rule += "; a host check (%s) when its script in `host/` exits 0" % code(hosts)
    out.append("- **Tests**, by the names the grade uses: %s%s. %s."
               % (code(tests) if tests else "none", "; exercises: " + code(exercises) if exercises else "", rule))
    for name in gdbs:
        breaks, frames = walkthrough(name)
        parts = []
        for fn, read in breaks:
            parts.append("`%s`%s" % (fn, " (reads %s)" % code(read) if read else ""))
        line = "- **GDB walkthrough `%s`** (run on your kernel by `make grade`): breaks on %s" % (name, ", ".join(parts))
        if frames:
            line += "; its backtraces must show %s" % code(frames)
        out.append(line + ". A function it breaks on keeps that name, and the names it reads.")
    for name, sentences in test_contracts(lab_dir, tests + exercises).items():
        for s in sentences:
            out.append("- **`%s`:** %s" % (name, s))
    out.append(END)
    return "\n".join(out) + "\n"


def handout(lab):
    return os.path.join(TOP, "labs", "lab%s" % lab, "README.md")


def current_box(text):
    m = re.search(r"^<!-- contract: .*?^<!-- end contract -->\n", text, re.M | re.S)
    return m


def labs():
    return sorted(d[3:] for d in os.listdir(os.path.join(TOP, "labs"))
                  if d.startswith("lab") and os.path.exists(os.path.join(TOP, "labs", d, "tests.conf")))


def main(argv):
    if len(argv) == 2 and argv[1] not in ("--write", "--check"):
        sys.stdout.write(box(argv[1]))
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    bad = 0
    for lab in labs():
        want = box(lab)
        path = handout(lab)
        with open(path) as f:
            text = f.read()
        m = current_box(text)
        have = m.group(0) if m else None
        if argv[1] == "--write":
            if m:
                text = text[:m.start()] + want + text[m.end():]
            else:
                at = re.search(r"^## Exercise", text, re.M)
                if not at:
                    print("lab %s: %s has no '## Exercise' heading to put the box before" % (lab, path))
                    bad = 1
                    continue
                text = text[:at.start()] + want + "\n" + text[at.start():]
            with open(path, "w") as f:
                f.write(text)
        elif have != want:
            print("lab %s: the contract box in labs/lab%s/README.md is not what tests.conf, the tests and the "
                  "walkthroughs give (vm/check/contract.py --write puts it right)" % (lab, lab))
            for line in sorted(set((have or "(no box)").splitlines()) ^ set(want.splitlines()))[:6]:
                print("    %s" % line[:160])
            bad = 1
        else:
            print("lab %s: the handout's contract box matches tests.conf, the tests and the walkthroughs" % lab)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
