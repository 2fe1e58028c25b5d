#!/usr/bin/env bash
# vm/grade/batch/grade-one.sh LAB PATCH OUTDIR [SLOT]: grade one hand-in for make grade-all
# and print its row, one line of JSON, on standard output (GNU parallel gathers it, from
# this machine or from another over ssh). Everything else goes to OUTDIR/STUDENT/:
# grade.out (what the grader printed), results.tsv and the guest logs.
#   STUDENT  the patch file's name without .patch
#   SLOT     the parallel job's slot: the hand-in builds in a folder of that slot
#            (vm/kernel/kernel.sh HANDIN_SLOT), reused hand-in after hand-in
# The row: student, status (graded, does-not-apply, does-not-build, timeout,
# refused-path), the points of each test (tests.conf names; gdb:NAME for a walkthrough),
# total, max, challenge (an optional challenge's hidden tests, challenge:NAME, count
# there and not in total), the written deliverables (tests.conf "deliverable": handin/FILE in the
# patch, characters beyond the lab's template; for a .c file, FILE:builds is 1 when it
# builds as the lab's tests do, FILE:run what became of it in a guest of the hand-in's
# kernel and FILE:run-start in one of the lab's start kernel, vm/grade/batch/run-program.sh),
# copy_of_reference (the hand-in's change is the reference solution's, by git patch-id
# --stable), the grader's commit, where the logs are (host:path), why (a status that is not
# graded), and suspicious: what in the diff touches the grader's world, for a person to
# read (vm/grade/batch/suspicious.py), and seconds (how long grading took).
# OUTDIR/STUDENT/row.json keeps the row, and results.json is the same grade as Gradescope's
# autograder would upload it (vm/grade/batch/gradescope-json.py), with a leaderboard where
# the lab has one (leaderboard.tsv, vm/grade/batch/leaderboard.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/vm/lib.sh"

lab=$1 patch=$2 outdir=$3 slot=${4:-1}
[ -f "$patch" ] || die "no hand-in at $patch"
student=$(basename "$patch" .patch)
case "$student" in *[!A-Za-z0-9._-]*) die "hand-in $patch: a student name is letters, digits, '.', '_' and '-'" ;; esac
out="$outdir/$student"
rm -rf "$out"
mkdir -p "$out"

started=$(date +%s)
patch_abs="$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")"
rc=0
TIMING_FILE="$out/timing.tsv" HANDIN_SLOT=$slot CHECK_RUN_DIR="$BUILD/check/run/grade-all-lab$lab-slot$slot" \
	RESULTS_DIR=$out timeout "${GRADE_TIMEOUT:-3600}" \
	"$top/vm/grade/check-lab.sh" "$lab" start "$patch_abs" \
	>"$out/grade.out" 2>&1 || rc=$?

# What grading came to: check-lab.sh's record (results/TAG.status: "status why"). No
# record means check-lab.sh itself stopped early: the grader's failure, not the hand-in's.
status=grader-error why="the grader stopped before it recorded a verdict (exit $rc; see grade.out)"
if [ "$rc" = 124 ]; then
	status=timeout why="grading took longer than ${GRADE_TIMEOUT:-3600} s"
elif [ -f "$out/lab$lab-submission.status" ]; then
	IFS=$'\t' read -r status why < <(sed -n 2p "$out/lab$lab-submission.status")
fi

# copy_of_reference: the net change of the hand-in against the lab's start tree, by
# patch-id. The kernel folder records the commit its tree was built from (the hand-in's
# commits on the start tree); a hand-in identical to the reference shares its kernel.
copy=unknown
commits=$(grep -c '^From [0-9a-f]\{40\} ' "$patch" || true)
kernel= # the hand-in's kernel folder, built by the grading above (a look-up now)
if [ "$status" = graded ] || [ "$status" = timeout ]; then
	kernel=$(HANDIN_SLOT=$slot "$top/vm/kernel/kernel.sh" "$lab" start "$patch_abs" 2>/dev/null) || kernel=
	solved=$("$top/vm/kernel/kernel.sh" "$lab" solved 2>/dev/null) || solved=
	# The solved tree's last commits: the reference solution's, then the challenge answer's.
	# (an edition, the Gradescope autograder's, has no solutions/labN: no copy to compare)
	nsol=$(find "$top/solutions/lab$lab" -maxdepth 1 -name '*.patch' 2>/dev/null | wc -l || true)
	nchal=$(find "$top/solutions/lab$lab/challenge" -name '*.patch' 2>/dev/null | wc -l || true)
	if [ -f "$kernel/commit" ] && [ -f "$solved/commit" ] && [ "$commits" -gt 0 ]; then
		# the kernel change only: written work (handin/) would hide a copied solution
		net_change() { git -C "$BUILD/src" diff "$1~$2" "$1~${3:-0}" -- . ':(exclude)handin' | git patch-id --stable | cut -d' ' -f1; }
		mine=$(net_change "$(cat "$kernel/commit")" "$commits")
		# a copy of the reference solution, with or without the challenge's answer
		ref=$(net_change "$(cat "$solved/commit")" "$((nsol + nchal))" "$nchal")
		ref_all=$(net_change "$(cat "$solved/commit")" "$((nsol + nchal))")
		if [ -n "$mine" ] && { [ "$mine" = "$ref" ] || [ "$mine" = "$ref_all" ]; }; then copy=true; else copy=false; fi
	fi
fi

# The written work: handin/FILE in the patch, against the lab's template labs/labN/FILE.
deliverables=$("$top/vm/testsconf.py" "$top/labs/lab$lab" deliverable)
written=()
for file in $deliverables; do
	text=$(awk -v f="b/handin/$file" '$1 == "+++" { on = ($2 == f); next } /^(diff|---) / { on = 0 } on && /^\+/ { print substr($0, 2) }' "$patch")
	template=0
	[ ! -f "$top/labs/lab$lab/$file" ] || template=$(wc -c <"$top/labs/lab$lab/$file")
	chars=$(printf '%s' "$text" | wc -c)
	written+=("$file" "$((chars > template ? chars - template : 0))")
	# A program (Lab 6's reproducer) is built as the lab's tests are and run alone in a
	# guest of the hand-in's kernel, and in one of the lab's start kernel (the defect): a
	# reproducer exits non-zero on the start kernel and 0 on a fixed one. What it shows is
	# for people to read in its logs.
	if [ "${file%.c}" != "$file" ] && [ -n "$text" ]; then
		printf '%s\n' "$text" >"$out/$file"
		ran=not-run ran_start=not-run
		if [ "$status" = graded ] && [ -n "$kernel" ]; then
			ran=$("$top/vm/grade/batch/run-program.sh" "$kernel" "$out/$file" "$out/${file%.c}.run")
			if [ "$ran" != does-not-build ] && start_kernel=$("$top/vm/kernel/kernel.sh" "$lab" start); then
				ran_start=$("$top/vm/grade/batch/run-program.sh" "$start_kernel" "$out/$file" "$out/${file%.c}.run-start")
			fi
		elif ! gcc -m32 -static -O2 -Wall -pthread -I"$top/labs/include" -o /dev/null "$out/$file" >/dev/null 2>&1; then
			ran=does-not-build
		fi
		written+=("$file:builds" "$([ "$ran" = does-not-build ] && echo 0 || echo 1)" "$file:run" "$ran"
			"$file:run-start" "$ran_start")
	fi
done

# A leaderboard (tests.conf "leaderboard" lines, Lab 5): the hand-in's kernel under
# -icount, ranked in results.json, never graded (vm/grade/batch/leaderboard.sh).
# (leaderboard.sh writes no file for a lab without one.)
leaderboard=
if [ "$status" = graded ] && [ -n "$kernel" ] &&
	"$top/vm/grade/batch/leaderboard.sh" "$lab" "$kernel" "$out/leaderboard.tsv" >"$out/leaderboard.out" 2>&1 &&
	[ -f "$out/leaderboard.tsv" ]; then
	leaderboard="$out/leaderboard.tsv"
fi

# What in the hand-in touches the grader's world (test names, comm, exit codes, the
# nonce, the debug-exit port), for a person to read; lines the reference adds too are not.
mapfile -t reference < <(find "$top/solutions/lab$lab" -maxdepth 1 -name '*.patch' 2>/dev/null | sort)
suspicious=$("$top/vm/grade/batch/suspicious.py" "$patch" "$top/labs" "${reference[@]}") || suspicious='["(the hand-in could not be read for this list)"]'

VM_DIR="$top/vm" python3 - "$lab" "$student" "$status" "$out/results.tsv" "$top/labs/lab$lab" "$copy" \
	"$(git -C "$top" rev-parse HEAD)" "$(hostname):$out" "$why" "$suspicious" "$(($(date +%s) - started))" \
	"${written[@]}" <<'PY' >"$out/row.json"
import json, os, sys
sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it
sys.path.insert(0, os.environ["VM_DIR"])
from testsconf import columns
from resultstsv import rows
lab, student, status, tsv, conf, copy, commit, logs, why, suspicious, seconds, *written = sys.argv[1:]
names = columns(conf)[0]
points = {n: 0 for n in names}
total = maximum = challenge = challenge_max = 0
for row in rows(tsv, lab):
    if row["test"] not in points:
        continue
    got = row["points"] if row["result"] == "PASS" else 0
    points[row["test"]] += got
    if row["test"].startswith("challenge:"):  # optional: apart from the lab's total
        challenge, challenge_max = challenge + got, challenge_max + row["points"]
    else:
        total, maximum = total + got, maximum + row["points"]
print(json.dumps({
    "student": student, "status": status, "tests": points, "total": total, "max": maximum,
    "challenge": challenge, "challenge_max": challenge_max,
    "written": {written[i]: (int(written[i + 1]) if written[i + 1].isdigit() else written[i + 1])
                for i in range(0, len(written), 2)},
    "copy_of_reference": {"true": True, "false": False}.get(copy), "grader": commit, "logs": logs,
    "why": why, "suspicious": json.loads(suspicious), "seconds": int(seconds),
}))
PY
# The same grade for Gradescope (and for an instructor who uploads or compares): one file.
# A results.json that cannot be made costs the row nothing: grade-all's table still has it.
if ! "$top/vm/grade/batch/gradescope-json.py" "$lab" "$out/row.json" "$out/results.tsv" "$top" \
	${leaderboard:+"$leaderboard"} >"$out/results.json"; then
	warn "no results.json for $student (above)"
	rm -f "$out/results.json"
fi
cat "$out/row.json"
