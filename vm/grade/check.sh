#!/usr/bin/env bash
# make check [LAB=n] [SUBMISSION=file.patch]: grade every lab (or one).
# For each lab: when it has exercises, its start tree must fail every exercise test (a
# test that cannot fail is a defect); then the solved tree must pass every test. An
# optional challenge's hidden tests (labs/labN/challenge/) are graded the same way, the
# solved tree carrying the challenge's answer too; their rows are challenge:NAME. A full
# run then tests class delivery: a student edition (vm/release/check-release.sh) and
# batch grading (vm/grade/batch/check-grade-all.sh). Start
# comes first: the labs then go through the series in order, so each switch of the
# one build tree is a small step forward.
# Results: results/results.tsv (lab variant smp test PASS|FAIL points), the guest logs,
# and results/timing.tsv, summed up at the end (builds, boots, GDB, other).
#
# Speed: a step's kernel is built (vm/kernel/kernel.sh: once per distinct tree, in place in
# one build folder) while the previous step's guests run, so the two CPUs do a build and
# a guest at once instead of one after the other.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:-} submission=${2:-}
if [ -n "$lab" ]; then
	[ -f "$top/labs/lab$lab/tests.conf" ] || die "LAB=$lab: there is no labs/lab$lab/tests.conf"
	labs=("$lab")
else
	[ -z "$submission" ] || die "SUBMISSION= grades one lab's hand-in: give LAB=n too"
	# A lab takes part once it has a tests.conf (a folder alone is work in progress).
	mapfile -t labs < <(find "$top/labs" -mindepth 2 -maxdepth 2 -path '*/lab[0-9]*/tests.conf' -printf '%h\n' |
		sed 's|.*/lab||' | sort -n)
fi
results="$top/results"
mkdir -p "$results"
rm -f "$results/results.tsv"
export TIMING_FILE="$results/timing.tsv"
printf 'category\tseconds\tstep\n' >"$TIMING_FILE"
# timed CATEGORY STEP COMMAND...: run one step of the run and give it a row of its own
# in results/timing.tsv, whatever it returns (its status is returned).
timed() {
	local category=$1 name=$2 t rc=0
	shift 2
	t=$(date +%s)
	"$@" || rc=$?
	timing "$category" "$(($(date +%s) - t))" "$name"
	return "$rc"
}

# The steps, in order: "LAB VARIANT". A student edition (make release) grades the labs it
# has solutions for, and the start tree of the first lab it has none for.
solved_k=$(edition_solved)
steps=()
for n in "${labs[@]}"; do
	if [ -n "$solved_k" ] && [ "$n" -gt "$solved_k" ]; then
		echo "lab $n: not graded in this student edition (RELEASE: SOLVED=$solved_k): its start tree needs later solutions"
		continue
	fi
	if [ -n "$submission" ]; then
		steps+=("$n submission")
		continue
	fi
	if grep -qE '^(exercise|host .* exercise|panic .* exercise)' "$top/labs/lab$n/tests.conf" ||
		[ -f "$top/labs/lab$n/challenge/challenge.conf" ]; then
		steps+=("$n start")
	fi
	if [ -n "$solved_k" ] && [ "$n" -ge "$solved_k" ]; then
		echo "lab $n: its reference solution is not in this student edition: its start tree only (make grade LAB=$n grades yours)"
		continue
	fi
	steps+=("$n solved")
done

# harness_print: a fingerprint of every file the grade depends on. A hand-in's build
# runs in a sandbox that cannot write them; this proves it did not, after the fact.
harness_print() {
	(cd "$top" && find vm labs gdbscripts Makefile -type f -print0 | sort -z | xargs -0 sha1sum | sha1sum)
}
harness_before=$(harness_print)

t0=$(date +%s)
failed=()
kernels=()
pending_pid="" pending_out="" pending_name=""
# finish_pending: wait for the guests of the step before, then show what they printed.
finish_pending() {
	[ -n "$pending_pid" ] || return 0
	wait "$pending_pid" || failed+=("$pending_name")
	cat "$pending_out"
	pending_pid=""
}

for step in "${steps[@]}"; do
	read -r n variant <<<"$step"
	v=$variant sub=()
	if [ "$variant" = submission ]; then v=start sub=("$submission"); fi
	# A kernel that does not apply or build is graded too: check-lab.sh gives every
	# declared test a zero row with the reason. A hand-in is never built here: its
	# grader prepares the tests first, then checks which files it may change.
	if [ -z "$submission" ] && kernel=$("$top/vm/kernel/kernel.sh" "$n" "$v"); then
		kernels+=("$(basename "$kernel")")
	fi
	finish_pending
	pending_out="$BUILD/check/step-lab$n-$variant.out"
	"$top/vm/grade/check-lab.sh" "$n" "$v" "${sub[@]}" >"$pending_out" 2>&1 &
	pending_pid=$!
	case "$variant" in
	start) pending_name="lab $n start (exercise tests must fail)" ;;
	*) pending_name="lab $n $variant" ;;
	esac
done
finish_pending
timing phase "$(($(date +%s) - t0))" "the labs: kernel builds beside the guests"
t_after=$(date +%s)

# Every patch of the series and every solution: kernel style, no checkpatch errors.
if [ -z "$submission" ]; then
	timed other checkpatch "$top/vm/grade/checkpatch.sh" >"$results/checkpatch.txt" 2>&1 || failed+=("checkpatch (results/checkpatch.txt)")
	echo "checkpatch: $(grep -c ': WARNING:' "$results/checkpatch.txt") warning(s), errors fail the run (results/checkpatch.txt)"
	# Every handout's grading table is the one tests.conf gives, and adds up to what
	# this run graded each lab's solved tree out of.
	timed other "handout grading tables" "$top/vm/grade/handout-tables.sh" "$results/results.tsv" || failed+=("handout grading tables")
	# Every exercise test that failed on a start tree said what it expected and got.
	shopt -s nullglob
	start_logs=("$results"/lab*-start-smp*.log)
	guest_logs=("$results"/lab*-smp*.log)
	shopt -u nullglob
	if [ "${#start_logs[@]}" -gt 0 ]; then
		timed other "failure messages" "$top/vm/grade/fail-lines.py" "${start_logs[@]}" || failed+=("failure messages (vm/grade/fail-lines.py)")
	fi
	# No passing check prints a line that reads as an error (a stale errno).
	if [ "${#guest_logs[@]}" -gt 0 ]; then
		timed other "passing lines" "$top/vm/grade/pass-lines.py" "${guest_logs[@]}" || failed+=("passing lines that read as errors")
	fi
	# A lab's reference reproducer fails on its start kernel and passes on the solved one.
	timed boot "reference reproducers" "$top/vm/grade/check-reproducers.sh" "${labs[@]}" || failed+=("reference reproducers (vm/grade/check-reproducers.sh)")
	# A handout's GDB steps are its walkthrough script's (which this run checked).
	timed other "handout GDB steps" "$top/vm/grade/handout-gdb.py" --check || failed+=("handout GDB steps (vm/grade/handout-gdb.py --write)")
	# The docs, rendered in a real browser: links, images, figures, a screenshot a page.
	timed other docs-check "$top/vm/docs/check.sh" >"$results/docs-check.txt" 2>&1 || failed+=("docs (results/docs-check.txt)")
	tail -3 "$results/docs-check.txt"
fi

# Class delivery, on a full run of the instructor's repository: a student edition, made
# and graded as a student would (lab 0), and make grade-all on three lab 0 hand-ins, with
# JOBS=2 and over ssh. Their own builds and boots are theirs: TIMING_FILE is not passed on.
if [ -z "$lab" ] && [ -z "$submission" ] && [ -z "$solved_k" ]; then
	timed other "student edition" env -u TIMING_FILE "$top/vm/release/check-release.sh" || failed+=("student edition (vm/release/check-release.sh)")
	timed other "make grade-all" env -u TIMING_FILE "$top/vm/grade/batch/check-grade-all.sh" || failed+=("make grade-all (vm/grade/batch/check-grade-all.sh)")
fi

# The grader's own must-fail checks, on the first lab's solved kernel (built above).
selftest_variant=solved
if [ -n "$solved_k" ] && [ "${labs[0]}" -ge "$solved_k" ]; then selftest_variant=start; fi
timed boot "harness self-test" env -u TIMING_FILE "$top/vm/grade/selftest.sh" "$("$top/vm/kernel/kernel.sh" "${labs[0]}" "$selftest_variant")" || failed+=("harness self-test")

if [ "$(harness_print)" != "$harness_before" ]; then
	echo "HARNESS CHANGED: a file under vm/, labs/, gdbscripts/ or the Makefile changed during grading"
	failed+=("harness changed during grading")
fi

timing phase "$(($(date +%s) - t_after))" "after the labs: style, docs, class delivery, self-test"

# A full run knows every kernel the labs need now: the rest of the store is stale.
if [ -z "$lab" ] && [ -d "$BUILD/check/kernels" ]; then
	for dir in "$BUILD"/check/kernels/*; do
		[ -d "$dir" ] || continue
		case " ${kernels[*]} " in *" $(basename "$dir") "*) ;; *) rm -rf "$dir" ;; esac
	done
	# The per-lab build folders of earlier versions of this grader (a tree and a build
	# of 1.5 GB each) are not used any more.
	pruned=0
	for old in "$BUILD"/check/lab[0-9]* "$BUILD"/check/tree[0-9]*; do
		[ -d "$old" ] || continue
		rm -rf "$old"
		pruned=1
	done
	if [ "$pruned" = 1 ]; then git -C "$BUILD/src" worktree prune; fi
fi

awk -F'\t' '{ max += $6; if ($5 == "PASS") got += $6; if ($5 == "PASS") p++; else f++ }
	END { printf "\nTotal score: %d/%d\n%d passed, %d failed\n", got, max, p, f }' "$results/results.tsv"
# Where the time went. Builds overlap the guests, so the parts add up to more than the wall.
awk -F'\t' -v wall="$(($(date +%s) - t0))" -v stored="${#kernels[@]}" '
	NR > 1 { sum[$1] += $2; n[$1]++ }
	END {
		printf "time: %d s (%d min) wall; kernel builds %d s (%d built, %d steps in all), guest boots %d s (%d), GDB walkthroughs %d s (%d), other %d s\n",
			wall, wall / 60, sum["build"], n["build"], stored, sum["boot"], n["boot"], sum["gdb"], n["gdb"], sum["other"]
	}' "$TIMING_FILE" </dev/null
"$top/vm/grade/timing-top.sh" "$TIMING_FILE"
echo "(results in results/results.tsv, the time of each step in results/timing.tsv)"
if [ "${#failed[@]}" -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
