#!/usr/bin/env python3
"""fail-lines.py LOG...: every failure of an exercise test tells the student what happened.

Reads the guest logs of the start trees (where every exercise test must fail) and, for
each test that failed ("not ok N - NAME"), requires that its output
  - has at least one "FAIL:" line, and
  - each FAIL line says what happened: "expected"/"got"/"want"/"returned", a measured
    value in parentheses ("(1503 ms)", "(default -1)"), or a watchdog line that names
    the step it was stuck in. (What was expected is the message itself and the
    condition printed after "<--".)
A test that dies without a FAIL line (a bare "Alarm clock", a crash) fails this check.
Prints each offence and exits 1 if there is any.
"""
import os
import re
import sys

SAYS_WHAT = re.compile(r"expected|got|want|returned|watchdog.*step|\([^)]*\d[^)]*\)[^<]*<--",
                       re.IGNORECASE)


def tests_of(log):
    """(name, output lines, ok) for each test of a guest log."""
    current, lines = None, []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"# running (\S+)", line)
            if m:
                current, lines = m.group(1), []
                continue
            m = re.match(r"(not ok|ok) \d+ - (\S+)", line)
            if m and current == m.group(2):
                yield current, lines, m.group(1) == "ok"
                current = None
                continue
            if current:
                lines.append(line[2:] if line.startswith("# ") else line)


def main(logs):
    bad = checked = 0
    for log in logs:
        for name, lines, ok in tests_of(log):
            if ok:
                continue
            checked += 1
            fails = [l for l in lines if l.startswith("FAIL:")]
            where = f"{os.path.basename(log)}: {name}"
            if not fails:
                print(f"{where}: failed without a FAIL line (last line: {lines[-1] if lines else 'none'!r})")
                bad += 1
            for l in fails:
                if not SAYS_WHAT.search(l):
                    print(f"{where}: a FAIL line says neither what was expected nor what happened: {l[:160]}")
                    bad += 1
    print(f"fail lines: {checked} failed tests read in {len(logs)} logs, {bad} unclear failure(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
