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
# (A Lab 5 hand-in's leaderboard is vm/check/gradescope-leaderboard.sh's: it needs Lab 5's
# kernel, which make check builds late, and this check runs as soon as Lab 0's are built.)
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

max=$("$top/vm/testsconf.py" "$top/labs/lab0" max-points)
verdicts=$("$top/vm/check/gradescope-verdicts.py" "$top/vm/grade/batch/gradescope-results.schema.json" "$work" "$max" \
	correct incomplete nothing no-sandbox) || verdicts=$'correct\t0\tthe results could not be read'
while IFS=$'\t' read -r name ok why; do
	check "$name" "$ok" "$why"
done <<<"$verdicts"
[ "$failed" = 0 ] || echo "  (logs: ${work#"$top"/}/*.out)"
exit "$failed"
