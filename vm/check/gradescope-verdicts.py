#!/usr/bin/env python3
"""vm/check/gradescope-verdicts.py SCHEMA WORK MAX NAME...: make check's verdict on each
results.json that make gradescope's autograder wrote, WORK/NAME.json, checked against
Gradescope's documented fields (SCHEMA, Debian's python3-jsonschema) and against what
that hand-in must score out of MAX (vm/check/gradescope.sh's header says what each NAME
is; leaderboard is vm/check/gradescope-leaderboard.sh's). Prints "NAME<TAB>OK<TAB>WHY" a
line, OK 1 or 0."""
import json, sys
import jsonschema
schema_path, work, maximum = sys.argv[1], sys.argv[2], int(sys.argv[3])
schema = json.load(open(schema_path))
for name in sys.argv[4:]:
    try:
        r = json.load(open("%s/%s.json" % (work, name)))
    except (OSError, ValueError) as e:
        print("%s\t0\tno results.json (%s)" % (name, e))
        continue
    try:
        jsonschema.validate(r, schema)
    except jsonschema.ValidationError as e:
        print("%s\t0\tnot schema-valid: %s" % (name, e.message))
        continue
    tests = r.get("tests", [])
    failing = [t for t in tests if t["status"] == "failed" and "challenge" not in t["tags"]]
    hidden = [t for t in tests if "challenge" in t["tags"]]
    if name == "correct":
        # the reference solution without the challenge's answer: its hidden tests fail, unseen
        ok = (r.get("score") == maximum and tests and not failing and hidden
              and all(t["visibility"] == "after_published" for t in hidden))
        why = "score %s of %d, %d tests, %d failed; %d hidden challenge tests, after_published" % (
            r.get("score"), maximum, len(tests), len(failing), len(hidden))
    elif name == "incomplete":
        exercise = [t for t in failing if t["name"].startswith("kstack_status")]
        named = all("FAIL:" in t["output"] for t in exercise)
        ok = exercise and named and 0 < r.get("score", -1) < maximum and all(t["score"] == 0 for t in exercise)
        why = "score %s of %d; failed: %s; each names its failed check: %s; first: %s" % (
            r.get("score"), maximum, ", ".join(t["name"] for t in failing) or "none", "yes" if named else "no",
            next((l for t in exercise for l in t["output"].splitlines() if "FAIL:" in l), "-"))
    elif name == "no-sandbox":
        out = r.get("output", "")
        ok = "score" not in r and not tests and "grader's fault" in out and r["extra_data"]["status"] == "grader-error"
        why = "score %s, %d tests, status %s; output: %s" % (
            r.get("score", "none"), len(tests), r["extra_data"].get("status"), out.replace("\n", " / ")[:140])
    elif name == "leaderboard":
        board = {e["name"]: e for e in r.get("leaderboard", [])}
        want = ("asys_roundtrip", "asys_eventfd_roundtrip")
        ok = all(w in board and isinstance(board[w]["value"], int) and board[w]["value"] > 0
                 and board[w].get("order") == "asc" for w in want)
        why = "Lab 5's reference kernel under -icount: " + (", ".join(
            "%s %s (%s)" % (e["name"], e["value"], e.get("order")) for e in board.values()) or "no entry")
    else:
        ok = r.get("score") == 0 and "handin-lab0.patch" in r.get("output", "")
        why = "score %s; output: %s" % (r.get("score"), r.get("output", "").replace("\n", " / ")[:120])
    print("%s\t%d\tschema-valid; %s" % (name, 1 if ok else 0, why))
