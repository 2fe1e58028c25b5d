#!/usr/bin/env bash
# vm/check/release.sh: make check's test of the student edition, as a student
# would meet it:
#  1. make release SOLVED=0 into build/check/release/student: none of the lines any
#     solution adds (vm/release/solution-lines.sh 0) is in any of its files, and no
#     optional challenge's hidden tests or answer is;
#  2. in it: make lab LAB=0, then make grade LAB=0: the exercise fails;
#  3. the student's answer (the reference solution, applied and not committed):
#     make grade LAB=0 gives full marks;
#  4. make handin LAB=0, then make check LAB=0 SUBMISSION=handin-lab0.patch (the
#     instructor's command, run in the edition): the same rows as make grade.
# And no hand-written wrong answers (labs/labN/wrong/) are in the edition; its hints stay
# folded (no handout holds a <details> block; make hint shows one hint at a time, and make
# grade reports the hints taken); in a SOLVED=4 edition docs/lab4.md states no
# exercise's approach (those paragraphs are solution sections); and each lab's handout,
# read in a SOLVED=n edition, names no command or path that does not work there.
# Prints one line per check; exit 1 when one fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

work="$BUILD/check/release"
rm -rf "$work"
mkdir -p "$work"
failed=0
check() { report_check release "$@"; }

echo "== student edition: make release SOLVED=0, then lab 0 as a student =="
"$top/vm/release/release.sh" "$work/student" 0 >"$work/release.out" 2>&1 || { cat "$work/release.out"; die "make release failed"; }
"$top/vm/release/solution-lines.sh" 0 >"$work/solution-lines"
leaks=$(cd "$work/student" && { git ls-files -z | xargs -0 grep -n -F -f "$work/solution-lines" || true; })
check no-solution-text "$([ -z "$leaks" ] && [ -s "$work/solution-lines" ] && echo 1 || echo 0)" \
	"$(wc -l <"$work/solution-lines") solution lines looked for; found: ${leaks:-none}"
check no-solutions "$([ -z "$(find "$work/student/solutions" -name '*.patch')" ] && echo 1 || echo 0)" \
	"solutions/ holds $(find "$work/student/solutions" -name '*.patch' | wc -l) patches"
hidden=$(cd "$work/student" && find labs solutions -type d -name challenge | sort | tr '\n' ' ')
check no-hidden-challenge "$([ -z "$hidden" ] && [ -n "$(find "$top/labs" -path '*/challenge/*.c')" ] && echo 1 || echo 0)" \
	"the instructor has $(find "$top/labs" -path '*/challenge/*.c' | wc -l) hidden challenge test(s); the edition has: ${hidden:-no challenge folder}"
wrong=$(cd "$work/student" && find labs -type d -name wrong | sort | tr '\n' ' ')
check no-wrong-answers "$([ -z "$wrong" ] && [ -n "$(find "$top/labs" -path '*/wrong/*.patch')" ] && echo 1 || echo 0)" \
	"the instructor has $(find "$top/labs" -path '*/wrong/*.patch' | wc -l) wrong answer(s) for make mutants; the edition has: ${wrong:-no wrong/ folder}"

# The student's build folder. Its kernel source is a clone that shares our objects: a real
# student's make lab extracts Debian's tarball (a minute and 1.2 GB that this test need
# not spend), and its busybox .deb is ours; the rest is what the student runs.
student_build="$work/student/build"
mkdir -p "$student_build"
git clone -q --shared --no-checkout "$BUILD/src" "$student_build/src"
git -C "$student_build/src" config user.name "fibrils lab"
git -C "$student_build/src" config user.email "lab@fibrils.invalid"
git -C "$student_build/src" config gc.auto 0
# The guest's busybox .deb, as make deps downloads it: the same file, so that this check
# does not depend on a Debian mirror answering (one mid-sync failed a run). The student's
# own make deps still runs, and finds nothing missing.
mkdir -p "$student_build/debs"
cp "$BUILD"/debs/busybox-static_*_i386.deb "$student_build/debs/"
# Hints: none in a handout; one at a time from make hint.
details=$(grep -l '<details>' "$work"/student/labs/*/README.md | tr '\n' ' ' || true)
BUILD=$student_build make -s -C "$work/student" hint LAB=4 EX=5 >"$work/hint.out" 2>&1 || true
shown=$(head -1 "$work/hint.out")
check hints-folded "$([ -z "$details" ] && [[ "$shown" == "Lab 4, exercise 5: hint 1 of "* ]] && ! grep -q '^## Hint' "$work/hint.out" && echo 1 || echo 0)" \
	"handouts with a <details> block: ${details:-none}; make hint LAB=4 EX=5: ${shown:-nothing}"
# Each lab's handout, walked in the edition its students have (SOLVED=n): the commands
# it tells them to run and the paths it names hold there (vm/check/handout-walk.py).
walk_bad=()
for conf in "$top"/labs/lab[0-9]*/tests.conf; do
	n=$(basename "$(dirname "$conf")")
	n=${n#lab}
	"$top/vm/release/release.sh" "$work/walk$n" "$n" >"$work/walk$n.out" 2>&1 || { walk_bad+=("lab $n: make release SOLVED=$n failed"); continue; }
	"$top/vm/check/handout-walk.py" "$work/walk$n" "$n" >>"$work/handout-walk.out" 2>&1 || walk_bad+=("lab $n")
	if [ "$n" = 4 ]; then
		approach=$(sed -n '/^## The holes/,/^## [^T]/p' "$work/walk4/docs/lab4.md" | grep -c -E '\*(Approach|Where):\*' || true)
		check no-approach-in-edition "$([ "$approach" = 0 ] && grep -q -E '\*(Approach|Where):\*' "$top/docs/lab4.md" && echo 1 || echo 0)" \
			"SOLVED=4 edition: $approach exercise approach line(s) in docs/lab4.md's exercises section"
	fi
	rm -rf "$work/walk$n"
done
if [ "${#walk_bad[@]}" = 0 ]; then
	check handout-walk 1 "every lab's handout holds in its own edition"
else
	check handout-walk 0 "${walk_bad[*]}: $(grep ':[0-9]*: ' "$work/handout-walk.out" | head -3 | tr '\n' ' ')"
fi

# score OUT: the "got/max" of make grade's last line.
score() { sed -n 's/^Score: lab 0 own: \([0-9]*\/[0-9]*\)$/\1/p' "$1" | tail -1; }

BUILD=$student_build make -C "$work/student" lab LAB=0 >"$work/lab.out" 2>&1 || { tail -20 "$work/lab.out"; die "make lab LAB=0 failed in the student edition"; }
check compile-commands "$([ -s "$student_build/lab0/compile_commands.json" ] && echo 1 || echo 0)" \
	"build/lab0/compile_commands.json: $(grep -c '"file"' "$student_build/lab0/compile_commands.json" 2>/dev/null || echo 0) files"
BUILD=$student_build make -C "$work/student" grade LAB=0 >"$work/grade-start.out" 2>&1 || true
before=$(score "$work/grade-start.out")
check grade-reports-hints "$(grep -q '^Hints taken (for you; not graded): .*EX=1 0 of ' "$work/grade-start.out" && echo 1 || echo 0)" \
	"$(grep '^Hints taken' "$work/grade-start.out" || echo 'make grade printed no hints line')"
exercise_failed=$(grep -c 'kstack_status .*FAIL' "$work/grade-start.out" || true)
check grade-start-tree "$([ -n "$before" ] && [ "${before%/*}" -lt "${before#*/}" ] && [ "$exercise_failed" -ge 1 ] && echo 1 || echo 0)" \
	"score $before, the exercise failed in $exercise_failed boot(s)"

for p in "$top"/solutions/lab0/*.patch; do git -C "$student_build/lab0/src" apply "$p"; done
BUILD=$student_build make -C "$work/student" grade LAB=0 >"$work/grade-answer.out" 2>&1 || true
after=$(score "$work/grade-answer.out")
check grade-with-answer "$([ -n "$after" ] && [ "${after%/*}" = "${after#*/}" ] && echo 1 || echo 0)" \
	"score $after with the answer applied, not committed"

# The hand-in make handin packs, graded in the edition as the instructor grades it (make
# check SUBMISSION=, which builds the lab's start kernel for the GDB constants: the
# edition has no reference solution of lab 0), must get the rows make grade gave the tree.
(cd "$work/student" && BUILD=$student_build make handin LAB=0) >"$work/handin.out" 2>&1 ||
	{ tail -5 "$work/handin.out"; die "make handin LAB=0 failed in the student edition"; }
BUILD=$student_build make -C "$work/student" check LAB=0 SUBMISSION="$work/student/handin-lab0.patch" \
	>"$work/check-submission.out" 2>&1 || true
# rows FILE VARIANT: "boot test result points" of results.tsv, the challenge's left out.
rows() {
	awk -F'\t' -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["variant"] == v && $col["test"] !~ /^challenge:/ { print $col["boot"], $col["test"], $col["result"], $col["points"] }' \
		"$1" 2>/dev/null | sort
}
own=$(rows "$work/student/results/grade/results.tsv" own)
submitted=$(rows "$work/student/results/results.tsv" submission)
check submission-in-edition "$([ -n "$submitted" ] && [ "$submitted" = "$own" ] && ! grep -q 'FAIL' <<<"$submitted" && echo 1 || echo 0)" \
	"make check SUBMISSION=handin-lab0.patch: $(grep -c PASS <<<"$submitted") of $(grep -c . <<<"$submitted") rows pass; make grade: $(grep -c PASS <<<"$own") of $(grep -c . <<<"$own")$([ "$submitted" = "$own" ] && echo ', the same rows' || echo ', NOT the same rows')"
[ "$failed" = 0 ] || echo "  (logs: ${work#"$top"/}/*.out)"
exit "$failed"
