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

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from guestlog import tests_of  # noqa: E402  (vm/, one floor down)

SAYS_WHAT = re.compile(r"expected|got|want|returned|watchdog.*step|\([^)]*\d[^)]*\)[^<]*<--",
                       re.IGNORECASE)


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
