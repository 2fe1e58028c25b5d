#!/usr/bin/env python3
"""pass-lines.py LOG...: no passing check prints a line that reads as an error.

A "pass:" line that carries an error message (strerror's text: "No such file or
directory", "File exists") tells a student something failed when nothing did: almost
always a stale errno printed on success. Such a line is allowed only when it names the
errno it expected (ELOOP, EINTR): then the error is the behaviour checked.
Prints each offending line with its log and exits 1 if there is any.
"""
import os
import re
import sys

ERRORS = [os.strerror(n) for n in range(1, 134)]
ERRORS = [e for e in ERRORS if not e.startswith("Unknown error")]
ERRNO_NAME = re.compile(r"\bE[A-Z0-9]{2,}\b")


def main(logs):
    bad = 0
    for log in logs:
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                if "pass:" not in line or ERRNO_NAME.search(line):
                    continue
                for err in ERRORS:
                    if err in line:
                        print(f"{os.path.basename(log)}: a passing check reads as an error ({err}): {line.strip()}")
                        bad += 1
                        break
    print(f"pass lines: {len(logs)} logs, {bad} passing line(s) that read as errors")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
