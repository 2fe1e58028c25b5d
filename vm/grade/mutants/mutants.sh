#!/usr/bin/env bash
# make mutants LAB=n [EXERCISE=k] [JOBS=j]: how many wrong answers the lab's tests reject.
#   vm/grade/mutants/mutants.sh LAB [EXERCISE]
# Grades, through the real grader (vm/grade/check-lab.sh on the lab's start tree, the
# hand-in built in its sandbox), small wrong versions of the lab's reference solution
# (vm/grade/mutants/mutate.py) and the hand-written wrong answers of labs/labLAB/wrong/
# (NAME.patch; "exK-NAME" belongs to exercise K, any other name to exercise 1). A mutant
# is killed when a graded row fails (a hang or a crash fails them all), survives when
# every row passes; one that does not build is counted apart.
#
# Two passes, so that a mutant costs one boot, not a lab's whole grading: first every
# mutant on the boot with the most CPUs and the lab's guest tests only (a copy of
# tests.conf without the other boots and the GDB walkthroughs); then the survivors of
# that through the whole grader, every boot and walkthrough. A mutant the quick pass
# kills fails the whole grader too (it runs the same tests on the same kernel), so
# both passes together give the whole grader's verdict on every mutant.
#
# First the reference solution itself goes through both passes as a hand-in: a grader
# that rejects it measures nothing. Mutants build one after another in one hand-in
# folder a job (JOBS lanes, build/check/handin-labLAB-slotmutantsJ), each a small
# step from the last; each mutant's kernel is removed from the store once graded.
# Writes results/labLAB-mutants.tsv (labLAB-exK-... with EXERCISE=k; a row a mutant,
# header line) and results/labLAB-mutants.md (vm/grade/mutants/report.py: the score of each exercise,
# each survivor's change). A survivor that is really equivalent to the reference is
# named, with the reason, in labs/labLAB/wrong/equivalent.tsv (key, reason).
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:?usage: make mutants LAB=n [EXERCISE=k] [JOBS=j]} exercise=${2:-}
jobs=${JOBS:-1}
# A mutant that hangs its guest is killed either way; 5 minutes is four times a solved
# lab's longest boot, where a hand-in's grading allows 15.
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-300}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "JOBS=$jobs: a number of parallel jobs, 1 or more"
[ -z "$exercise" ] || [[ "$exercise" =~ ^[1-9][0-9]*$ ]] || die "EXERCISE=$exercise: an exercise number (the order of solutions/lab$lab/*.patch)"
ls "$top/solutions/lab$lab/"*.patch >/dev/null 2>&1 || die "lab $lab has no reference solution (solutions/lab$lab/*.patch): no mutants to make"
tag="lab$lab${exercise:+-ex$exercise}" # what the results are named by: one run a lab, or an exercise
work="$BUILD/mutants/$tag"
rm -rf "$work"
mkdir -p "$work/mutants" "$work/graded" "$top/results"

# --- the reference solution: the start tree's commit and the solution's, in build/src ---
start=$(KERNEL_OBJECT='' "$top/vm/kernel/kernel.sh" "$lab" start) || die "lab $lab's start kernel did not build"
solved=$("$top/vm/kernel/kernel.sh" "$lab" solved) || die "lab $lab's solved kernel did not build"
# The solved tree's last commits are the reference solution's, then the challenge
# answer's; the commit before them is the start tree (the same tree as the start kernel's,
# made by another git am: the solution's own parent is the one to diff against).
[ -f "$start/commit" ] || die "no commit recorded in $start"
challenge_commits=$(find "$top/solutions/lab$lab/challenge" -name '*.patch' 2>/dev/null | wc -l)
solution_commits=$(find "$top/solutions/lab$lab" -maxdepth 1 -name '*.patch' | wc -l)
ref=$(git -C "$BUILD/src" rev-parse "$(cat "$solved/commit")~$challenge_commits")
base=$(git -C "$BUILD/src" rev-parse "$ref~$solution_commits")
git -C "$BUILD/src" diff --quiet "$(cat "$start/commit")" "$base" ||
	die "the solved tree's start ($base) is not the start kernel's tree ($(cat "$start/commit"))"
"$top/vm/grade/mutants/mutate.py" "$BUILD/src" "$base" "$ref" "$work/mutants" ${exercise:+"$exercise"}

# The reference itself, as a hand-in: the control.
git -C "$BUILD/src" format-patch -q --stdout "$base..$ref" >"$work/mutants/reference.patch"
# The hand-written wrong answers of the exercise(s) asked for.
wrong_rows="$work/mutants/wrong.tsv"
: >"$wrong_rows"
for patch in "$top/labs/lab$lab/wrong/"*.patch; do
	[ -e "$patch" ] || continue
	name=$(basename "$patch" .patch) k=1
	if [[ "$name" =~ ^ex([0-9]+)- ]]; then k=${BASH_REMATCH[1]}; fi
	[ -z "$exercise" ] || [ "$k" = "$exercise" ] || continue
	cp "$patch" "$work/mutants/wrong-$name.patch"
	printf 'wrong-%s\t%s\twrong-answer\t-\t-\twrong-%s\t%s\t-\n' "$name" "$k" "$name" \
		"$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$patch" | head -1)" >>"$wrong_rows"
done

# --- the quick pass's lab: one boot (the most CPUs), the guest tests, no walkthroughs ---
quick="$work/quick-labs"
mkdir -p "$quick/lab$lab"
ln -s "$top/labs/include" "$quick/include"
for entry in "$top/labs/lab$lab/"*; do
	case "${entry##*/}" in tests.conf | challenge | wrong) ;; *) ln -s "$entry" "$quick/lab$lab/" ;; esac
done
boots=$("$top/vm/testsconf.py" "$top/labs/lab$lab" | awk -F'\t' '$1 == "smp" { print $2 }')
most=$(tr ' ' '\n' <<<"$boots" | sort -t+ -k1,1n | tail -1)
awk -v most="$most" '$1 == "smp" { print "smp", most; next } $1 == "gdb" || $1 == "start-smp" { next } { print }' \
	"$top/labs/lab$lab/tests.conf" >"$quick/lab$lab/tests.conf"

# grade_one ID PASS SLOT: grade mutant ID (its patch in $work/mutants) in pass quick or
# whole; prints "ID PASS VERDICT KILLED_BY" (TSV). The verdict comes from check-lab.sh's
# records (TAG.status, results.tsv), never its printed words.
grade_one() {
	local id=$1 pass=$2 slot=$3 out rc=0 status=grader-error why killed_by=- verdict store
	local patch="$work/mutants/$id.patch"
	out="$work/graded/$pass/$id"
	rm -rf "$out"
	mkdir -p "$out"
	(
		[ "$pass" = whole ] || export LABS_DIR="$quick"
		HANDIN_SLOT="mutants$slot" CHECK_RUN_DIR="$BUILD/check/run/mutants-lab$lab-slot$slot" \
			RESULTS_DIR="$out" TIMING_FILE='' timeout "${GRADE_TIMEOUT:-3600}" \
			"$top/vm/grade/check-lab.sh" "$lab" start "$patch"
	) >"$out/grade.out" 2>&1 || rc=$?
	if [ -f "$out/lab$lab-submission.status" ]; then
		IFS=$'\t' read -r status why < <(sed -n 2p "$out/lab$lab-submission.status")
	fi
	[ "$rc" != 124 ] || status=timeout
	if [ -f "$out/results.tsv" ]; then
		killed_by=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["result"] == "FAIL" && $col["test"] !~ /^challenge:/ { print $col["test"] }' \
			"$out/results.tsv" | sort -u | paste -sd, -)
	fi
	case "$status" in
	graded | timeout) if [ -n "$killed_by" ]; then verdict=killed; else verdict=survived killed_by=-; fi ;;
	does-not-build) verdict=not-compiling killed_by=- ;;
	refused-path) verdict=killed killed_by=refused-path ;; # it changes what a hand-in may not: 0
	*) verdict=$status killed_by="${why:--}" ;;
	esac
	# This mutant's kernel is never wanted again.
	if store=$(HANDIN_SLOT="mutants$slot" "$top/vm/kernel/kernel.sh" --path "$lab" start "$patch" 2>/dev/null); then
		rm -rf "$store"
	fi
	rm -rf "$BUILD/check/run/mutants-lab$lab-slot$slot"
	printf '%s\t%s\t%s\t%s\n' "$id" "$pass" "$verdict" "${killed_by:--}"
}

# run_pass PASS IDFILE OUT: grade the mutants IDFILE lists, JOBS lanes at a time, into OUT.
run_pass() {
	local pass=$1 ids=$2 verdicts=$3 lane
	: >"$verdicts"
	for ((lane = 1; lane <= jobs; lane++)); do
		(
			awk -v n="$jobs" -v k="$lane" '(NR - 1) % n == k - 1' "$ids" | while read -r id; do
				line=$(grade_one "$id" "$pass" "$lane")
				echo "$line" >>"$verdicts.$lane"
				echo "  $pass: $(tr '\t' ' ' <<<"$line")"
			done
		) &
	done
	wait
	cat "$verdicts".* >>"$verdicts" 2>/dev/null || true
	rm -f "$verdicts".*
}

echo "== make mutants: lab $lab${exercise:+, exercise $exercise}: the reference solution first (the control) =="
for pass in quick whole; do
	line=$(grade_one reference "$pass" 1)
	verdict=$(cut -f3 <<<"$line")
	[ "$verdict" = survived ] || die "the grader does not pass the reference solution as a hand-in ($pass pass: $verdict, $(cut -f4 <<<"$line")); see $work/graded/$pass/reference: mutants would measure nothing"
done

awk -F'\t' 'NR > 1 { printf "%03d\n", $1 }' "$work/mutants/mutants.tsv" >"$work/quick.ids"
cut -f1 "$wrong_rows" >>"$work/quick.ids"
echo "== quick pass: $(wc -l <"$work/quick.ids") mutants, one boot each (-smp $most), $jobs at a time =="
run_pass quick "$work/quick.ids" "$work/quick.tsv"
awk -F'\t' '$3 == "survived" { print $1 }' "$work/quick.tsv" >"$work/whole.ids"
echo "== whole pass: the $(wc -l <"$work/whole.ids") survivors through the whole grader =="
run_pass whole "$work/whole.ids" "$work/whole.tsv"

# One row a mutant: what it is (mutants.tsv, wrong.tsv), and its last verdict.
{
	printf 'id\texercise\toperator\tfile\tline\tkey\toriginal\tmutated\tverdict\tkilled_by\tpass\tpatch\n'
	{
		awk -F'\t' 'NR > 1 { $1 = sprintf("%03d", $1); print }' OFS='\t' "$work/mutants/mutants.tsv"
		cat "$wrong_rows"
	} | while IFS=$'\t' read -r id rest; do
		verdict=$(awk -F'\t' -v id="$id" '$1 == id { v = $3 "\t" $4 "\t" $2 } END { print v }' "$work/quick.tsv" "$work/whole.tsv")
		printf '%s\t%s\t%s\t%s\n' "$id" "$rest" "${verdict:-ungraded	-	-}" "${work#"$top"/}/mutants/$id.patch"
	done
} >"$top/results/$tag-mutants.tsv"
"$top/vm/grade/mutants/report.py" "$top/results/$tag-mutants.tsv" "$work/mutants/exercises.tsv" \
	"$top/labs/lab$lab/wrong/equivalent.tsv" | tee "$top/results/$tag-mutants.md"
echo "rows: results/$tag-mutants.tsv; graded logs: ${work#"$top"/}/graded/"
