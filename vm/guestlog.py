#!/usr/bin/env python3
"""The Python reader of a guest log's tests: what the guest's /init printed for each.

/init (vm/boot/guest/init) prints "# running NAME", then the test's output with "# " in
front of each line, then "ok N - NAME # ..." or "not ok N - NAME # ...". make check's
message checks (vm/check/fail-lines.py) and the Gradescope results.json
(vm/grade/batch/gradescope-json.py) read the tests' lines through tests_of(); verdicts
come from vm/lib.sh tap_result, which also checks the boot's nonce.
"""
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it


def tests_of(log, unfinished=False):
    """(name, output lines without the "# ", ok) for each test of a guest log, in order.
    unfinished: also the test that was running when the log ends (the guest died), with
    ok None."""
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
    if unfinished and current:
        yield current, lines, None
