#!/usr/bin/env python3
"""vm/grade/batch/gradescope-json.py LAB ROW.json RESULTS.tsv TOP [LEADERBOARD.tsv]

One hand-in's grade as Gradescope's results.json (gradescope/autograder_samples,
docs/specs.md), on standard output. make grade-all writes one beside each hand-in's
logs, and the Gradescope autograder (make gradescope) uploads the same file.

  ROW.json      the hand-in's row (vm/grade/batch/grade-one.sh): status, why, total,
                max, the grader's commit, what is suspicious
  RESULTS.tsv   the grader's rows for it (vm/resultstsv.py): each becomes one test,
                named by the test and its boot, its points, passed or failed; its output
                is the grader's reason and the lines of the log that explain it (the
                test's own lines from its "# running NAME" line to its result, the
                failed checks first; a walkthrough's or host check's last lines)
  TOP           the repository, which relative log paths are under
  LEADERBOARD   optional "name<TAB>value<TAB>order" rows (Labs 5 and 8: guest
                instructions from make bench on the hand-in's kernel)

Visibility: every row is visible, but a challenge's hidden tests, which are
"after_published" (optional: they do not count in the score). The status decides the
score: a hand-in that was graded, refused or does not apply or build gets the lab's total
(its zeros say why, and that it is the hand-in's doing); a grader-error gets no score and
no tests, and an output that says the fault is the grader's, so that Gradescope reports a
failed autograder run instead of a zero the student did not earn.
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from resultstsv import rows  # noqa: E402  (vm/, one floor down)
from guestlog import tests_of  # noqa: E402

# The statuses that are the grader's failure, not the hand-in's (grade-one.sh, grade-all.sh).
GRADER_FAULT = ("grader-error", "not-graded", "grader-mismatch")
STUDENT_WORDS = {
    "graded": "graded",
    "timeout": "graded, but a guest of your kernel hung: the tests it did not finish score 0",
    "refused-path": "refused: your patch changes a file this lab's hand-ins may not change",
    "does-not-apply": "your patch does not apply to the lab's start tree",
    "does-not-build": "the kernel with your patch does not build",
    "no-handin": "nothing to grade",
}
OUTPUT_LINES = 40  # of a log, in one test's output


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return None


def explain(row, top):
    """The grader's reason and the log lines that explain a row, for its output."""
    words = []
    if row["why"]:
        words.append(row["why"])
    log_path = row["log"]
    if log_path in ("", "-"):
        return "\n".join(words)
    if not os.path.isabs(log_path):
        log_path = os.path.join(top, log_path)
    log = read_text(log_path)
    if log is None:
        words.append("(its log, %s, is not here)" % row["log"])
        return "\n".join(words)
    name = row["test"]
    if name.startswith("challenge:"):
        name = name[len("challenge:"):]
    # a guest test's own lines; a walkthrough's, host check's or panic boot's last ones
    own = [out for test, out, _ in tests_of(log_path, unfinished=True) if test == name] \
        if not name.startswith("gdb:") and log_path.endswith(".log") else []
    lines = own[-1] if own else log[-15:]
    failed = [line for line in lines if "FAIL" in line]
    if failed and row["result"] != "PASS":
        words.append("Failed checks:")
        words.extend(failed[:OUTPUT_LINES])
        words.append("")
    if lines:
        words.append("Its lines of %s:" % os.path.basename(log_path))
        if len(lines) > OUTPUT_LINES:
            words.append("(%d lines before these are left out)" % (len(lines) - OUTPUT_LINES))
        words.extend(lines[-OUTPUT_LINES:])
    return "\n".join(words)


def boot_words(boot):
    if boot in ("", "-"):
        return ""
    cpus, _, mode = boot.partition("+")
    return ", -smp %s%s" % (cpus, ", %s mode" % mode if mode else "")


def test_entry(number, row, top):
    name = row["test"]
    challenge = name.startswith("challenge:")
    if name.startswith("gdb:"):
        title, tags = "GDB walkthrough %s" % name[4:], ["gdb"]
    elif challenge:
        title, tags = "challenge (optional, not in the score): %s%s" % (name[10:], boot_words(row["boot"])), ["challenge"]
    else:
        title, tags = name + boot_words(row["boot"]), ["test"]
    if row["boot"] not in ("", "-"):
        tags.append("boot " + row["boot"])
    passed = row["result"] == "PASS"
    return {
        "number": str(number),
        "name": title,
        "score": row["points"] if passed else 0,
        "max_score": row["points"],
        "status": "passed" if passed else "failed",
        "output": explain(row, top),
        "tags": tags,
        "visibility": "after_published" if challenge else "visible",
    }


def results(lab, row, tsv, top, leaderboard=None):
    status = row.get("status", "grader-error")
    extra = {k: row.get(k) for k in ("status", "why", "grader", "logs", "copy_of_reference", "suspicious", "written")}
    out = {"execution_time": int(row.get("seconds", 0)), "stdout_visibility": "hidden", "extra_data": extra}
    if status in GRADER_FAULT:
        out["output"] = ("Lab %s: not graded. The grader failed before your code was judged (%s: %s). "
                         "This is the grader's fault, not your hand-in's: your instructor has been shown the "
                         "details, and your hand-in will be graded again." % (lab, status, row.get("why", "")))
        out["tests"] = []
        return out
    graded = rows(tsv, lab)
    out["tests"] = [test_entry(i + 1, r, top) for i, r in enumerate(graded)]
    out["score"] = row.get("total", 0)
    lines = ["Lab %s: %s/%s: %s." % (lab, row.get("total", 0), row.get("max", 0), STUDENT_WORDS.get(status, status))]
    if status not in ("graded",) and row.get("why"):
        lines.append("Why: %s" % row["why"])
    if row.get("challenge_max"):
        lines.append("The optional challenge's hidden tests are shown when grades are published; they are not in the score.")
    out["output"] = "\n".join(lines)
    if leaderboard:
        out["leaderboard"] = leaderboard
    return out


def read_leaderboard(path):
    board = []
    for line in read_text(path) or []:
        name, value, order = line.split("\t")
        board.append({"name": name, "value": float(value) if "." in value else int(value), "order": order})
    return board


def main(argv):
    if len(argv) not in (5, 6):
        sys.exit(__doc__.strip().splitlines()[0])
    lab, row_path, tsv, top = argv[1:5]
    with open(row_path) as f:
        row = json.load(f)
    board = read_leaderboard(argv[5]) if len(argv) == 6 else None
    json.dump(results(lab, row, tsv, top, board), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
