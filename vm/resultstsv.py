#!/usr/bin/env python3
"""The Python reader of results.tsv, the grader's record of graded rows.

vm/lib.sh results_row writes it: a header line naming the columns, then one row a
graded line,

    lab  variant  boot  test  result  points  why  log

BOOT is the boot's smp setting (1, 2, 2+cachemiss; - for a check of no boot), RESULT
PASS or FAIL, POINTS what the row is worth, WHY what the grader printed in parentheses,
LOG the file that explains it (relative to the repository, or absolute; - for none).
make grade-all's rows and the Gradescope results.json are made from these records,
never from the grader's printed lines.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it

COLUMNS = ("lab", "variant", "boot", "test", "result", "points", "why", "log")


def rows(path, lab=None):
    """The rows of results.tsv at path (of lab LAB only, when given), as dicts; points an int."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        if header == [""]:  # empty: no row was graded
            return out
        if tuple(header) != COLUMNS:
            raise ValueError("%s: its header is not %s" % (path, " ".join(COLUMNS)))
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != len(COLUMNS):
                raise ValueError("%s: a row of %d fields, not %d: %r" % (path, len(fields), len(COLUMNS), line))
            row = dict(zip(COLUMNS, fields))
            if lab is not None and row["lab"] != str(lab):
                continue
            row["points"] = int(row["points"])
            out.append(row)
    return out
