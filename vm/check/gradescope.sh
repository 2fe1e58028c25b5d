#!/usr/bin/env bash
# vm/check/gradescope.sh BUILD CORRECT.patch INCOMPLETE.patch: make check's test of make
# gradescope, on lab 0. It builds the autograder zip, unpacks it into a throw-away root
# laid out like /autograder, runs its setup.sh once and its run_autograder on two
# hand-ins, and checks each results.json against the schema of Gradescope's documented
# fields (vm/grade/batch/gradescope-results.schema.json, Debian's python3-jsonschema):
#   correct      the reference solution: score = the lab's maximum, every test passed
#   incomplete   a start that changes nothing that matters: kstack_status fails, and its
#                output names the check that failed (a "FAIL:" line of the test)
#   (nothing)    no handin-lab0.patch: score 0, an output that names the file to submit
#   no-sandbox   the correct one renamed (so that it must be built) where bubblewrap
#                cannot start: grader-error, no score, an output that says the fault is
#                the grader's
# and a leaderboard as a Lab 5 hand-in gets one (vm/grade/batch/leaderboard.sh, on Lab
# 5's reference kernel, built by make check before): both figures tests.conf names, in
# guest instructions, lower first, in a schema-valid results.json.
# BUILD is the build folder to share (vm/check/grade-all.sh passes its instructor clone's,
# where these hand-ins were just graded): the kernels are look-ups, the boots are real.
# Prints one line per check; exit 1 when one fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

shared_build=${1:?usage: $0 BUILD CORRECT.patch INCOMPLETE.patch}
correct=${2:?} incomplete=${3:?}
work="$BUILD/check/gradescope"
rm -rf "$work"
mkdir -p "$work"
failed=0
check() { report_check gradescope "$@"; }
echo "== make gradescope LAB=0: the zip, its setup.sh, and run_autograder on a correct, an incomplete and a missing hand-in =="

"$top/vm/gradescope/package.sh" 0 "$work" >"$work/package.out" 2>&1 || true
zip="$work/lab0-autograder.zip"
listing=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip" 2>/dev/null || true)
missing=()
for f in setup.sh run_autograder README.md LAB primer.patch fibrils/Makefile fibrils/labs/lab0/challenge/challenge.conf; do
	grep -qx "$f" <<<"$listing" || missing+=("$f")
done
leaked=$(grep -E '^fibrils/(solutions/lab[0-9]+/|labs/lab[0-9]+/wrong/)' <<<"$listing" | head -3 | paste -sd, - || true)
check zip "$([ -n "$listing" ] && [ "${#missing[@]}" = 0 ] && [ -z "$leaked" ] && echo 1 || echo 0)" \
	"$(grep -c . <<<"$listing") files; missing: ${missing[*]:-none}; a solution or wrong answer in it: ${leaked:-none}"

# The throw-away /autograder: source/ is the zip unpacked, as Gradescope does.
root="$work/autograder"
mkdir -p "$root/source"
python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for i in z.infolist():
    z.extract(i, sys.argv[2])
    import os; os.chmod(os.path.join(sys.argv[2], i.filename), i.external_attr >> 16 & 0o777)' "$zip" "$root/source" 2>"$work/unzip.err" || true
rc=0
BUILD=$shared_build "$root/source/setup.sh" >"$work/setup.out" 2>&1 || rc=$?
check setup "$([ "$rc" = 0 ] && echo 1 || echo 0)" "setup.sh exit $rc$([ "$rc" = 0 ] || echo ": $(tail -1 "$work/setup.out")")"

# grade NAME [PATCH]: run_autograder on PATCH as the submission; its results.json is kept
# as $work/NAME.json. No PATCH: an empty submission. GRADE_PATH: the PATH it runs with.
grade() {
	rm -rf "$root/submission" "$root/results"
	mkdir -p "$root/submission"
	[ -z "${2:-}" ] || cp "$2" "$root/submission/handin-lab0.patch"
	PATH=${GRADE_PATH:-$PATH} AUTOGRADER_ROOT=$root BUILD=$shared_build "$root/source/run_autograder" >"$work/$1.out" 2>&1 || true
	cp "$root/results/results.json" "$work/$1.json" 2>/dev/null || true
}
grade correct "$correct"
grade incomplete "$incomplete"
grade nothing
# A sandbox that cannot start (as vm/check/grade-all.sh makes one): the grader's failure.
mkdir -p "$work/no-sandbox-bin"
printf '#!/bin/sh\necho "bwrap: No permissions to create a new namespace" >&2\nexit 1\n' >"$work/no-sandbox-bin/bwrap"
chmod +x "$work/no-sandbox-bin/bwrap"
sed 's/^Subject: \[PATCH\] /Subject: [PATCH] (on Gradescope) /' "$correct" >"$work/correct-again.patch"
GRADE_PATH="$work/no-sandbox-bin:$PATH" grade no-sandbox "$work/correct-again.patch"

# The leaderboard of a Lab 5 hand-in, here the reference's kernel's.
echo '{"student": "lab5", "status": "graded", "total": 0, "max": 0}' >"$work/lab5-row.json"
if k5=$("$top/vm/kernel/kernel.sh" 5 solved 2>/dev/null) &&
	"$top/vm/grade/batch/leaderboard.sh" 5 "$k5" "$work/lab5-leaderboard.tsv" >"$work/leaderboard.out" 2>&1; then
	"$top/vm/grade/batch/gradescope-json.py" 5 "$work/lab5-row.json" /dev/null "$top" "$work/lab5-leaderboard.tsv" \
		>"$work/leaderboard.json" 2>>"$work/leaderboard.out" || true
fi

max=$("$top/vm/testsconf.py" "$top/labs/lab0" max-points)
verdicts=$(python3 - "$top/vm/grade/batch/gradescope-results.schema.json" "$work" "$max" <<'PY'
import json, sys
import jsonschema
schema_path, work, maximum = sys.argv[1], sys.argv[2], int(sys.argv[3])
schema = json.load(open(schema_path))
for name in ("correct", "incomplete", "nothing", "no-sandbox", "leaderboard"):
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
PY
) || verdicts=$'correct\t0\tthe results could not be read'
while IFS=$'\t' read -r name ok why; do
	check "$name" "$ok" "$why"
done <<<"$verdicts"
[ "$failed" = 0 ] || echo "  (logs: ${work#"$top"/}/*.out)"
exit "$failed"
