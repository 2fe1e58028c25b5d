#!/usr/bin/env bash
# make check [LAB=n] [SUBMISSION=file.patch]: grade every lab (or one).
# For each lab: when it has exercises, its start tree must fail every exercise test (a
# test that cannot fail is a defect); then the solved tree must pass every test. An
# optional challenge's hidden tests (labs/labN/challenge/) are graded the same way, the
# solved tree carrying the challenge's answer too; their rows are challenge:NAME. A full
# run also tests class delivery: a student edition (vm/check/release.sh) and batch
# grading (vm/check/grade-all.sh). Start
# comes first: the labs then go through the series in order, so each switch of the
# one build tree is a small step forward.
# Results: results/results.tsv (vm/lib.sh results_row: a header, then lab variant boot test
# result points why log), the guest logs,
# and results/timing.tsv, summed up at the end (builds, boots, GDB, other).
#
# Speed: the kernels are built (vm/kernel/kernel.sh: once per distinct tree, in place in
# one build folder) while the labs whose kernels are ready are graded, two at a time
# (below), so the two CPUs are kept busy with builds and guests together.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:-} submission=${2:-}
if [ -n "$lab" ]; then
	[ -f "$top/labs/lab$lab/tests.conf" ] || die "LAB=$lab: there is no labs/lab$lab/tests.conf"
	labs=("$lab")
else
	[ -z "$submission" ] || die "SUBMISSION= grades one lab's hand-in: give LAB=n too"
	mapfile -t labs < <(lab_numbers)
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
	# a lab with an exercise or a hidden test: its start tree must fail them
	if "$top/vm/testsconf.py" "$top/labs/lab$n" |
		awk -F'\t' '$1 == "exercise" || $4 == "exercise" || $1 == "challenge" { f = 1 } END { exit !f }'; then
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
steps_dir="$BUILD/check/steps"
after_dir="$BUILD/check/after"
rm -rf "$steps_dir" "$after_dir"
mkdir -p "$steps_dir" "$after_dir"
export GUEST_SLOTS=${GUEST_SLOTS:-3}
# Every guest of this run, the checks' own builds' too, counts against the one cap.
export GUEST_SLOT_DIR="$BUILD/check/guest-slots"

# The other checks. They depend on the labs' kernels or results, not on each other, so
# they run AFTER_JOBS at a time (default 2, this machine's CPUs: most of them are one
# guest, one browser or one Perl at a time), each into a file of its own that is printed
# whole, in this order, when all are done. Longest first, so that the lanes end together.
# A check that needs only some kernels says when it may start beside the labs, in the
# CPU time their guests leave idle while they sleep:
#   "LAB VARIANT"  once that kernel is built (the builder makes them in step order): for
#                  a check that only boots them;
#   builder        once the builder has made every kernel: for a check that builds kernels
#                  of its own (hand-ins, a student's). A cold run's builder keeps both CPUs
#                  busy, and a second build beside it only slows it down; a warm run's is
#                  done in minutes.
# Any other check starts after the labs, whose results it reads.
after=() # "FUNCTION|CATEGORY|STEP|WHAT FAILED|NEEDS": NEEDS a step's index, builder or all
# after_check FUNCTION CATEGORY STEP WHAT-FAILED [LAB VARIANT | builder]
after_check() {
	local need=all i
	case "${5:-}" in
	"") ;;
	builder) need=builder ;;
	*) for i in "${!steps[@]}"; do [ "${steps[$i]}" != "$5" ] || need=$i; done ;;
	esac
	after+=("$1|$2|$3|$4|$need")
}

# Class delivery, on a full run of the instructor's repository: a student edition, made
# and graded as a student would (lab 0), and make grade-all on four lab 0 hand-ins, with
# JOBS=2 and over ssh. Their own builds and boots are theirs: TIMING_FILE is not passed on.
grade_all_check() { env -u TIMING_FILE "$top/vm/check/grade-all.sh"; }
release_check() { env -u TIMING_FILE "$top/vm/check/release.sh"; }
if [ -z "$lab" ] && [ -z "$submission" ] && [ -z "$solved_k" ]; then
	# The kernel's own selftests: the stock kernel and the fibril kernels built above.
	kselftests_check() { env -u TIMING_FILE "$top/vm/check/kselftests.sh"; }
	# These three build and boot beside the labs' guests if they start early ("builder"):
	# unmeasured on a warm run, where a starved guest's clock runs away (an RCU stall
	# report fails its boot), so they still wait for the labs.
	after_check kselftests_check boot "kernel selftests" "kernel selftests (vm/check/kselftests.sh)"
	after_check grade_all_check other "make grade-all" "make grade-all (vm/check/grade-all.sh)"
	after_check release_check other "student edition" "student edition (vm/check/release.sh)"
	leaderboard_check() { env -u TIMING_FILE "$top/vm/check/gradescope-leaderboard.sh"; }
	after_check leaderboard_check boot "Gradescope leaderboard" "Gradescope leaderboard (vm/check/gradescope-leaderboard.sh)"
fi

# The grader's own must-fail checks, on the first lab's solved kernel.
selftest_variant=solved
if [ -n "$solved_k" ] && [ "${labs[0]}" -ge "$solved_k" ]; then selftest_variant=start; fi
selftest_check() { env -u TIMING_FILE "$top/vm/check/selftest.sh" "$("$top/vm/kernel/kernel.sh" "${labs[0]}" "$selftest_variant")"; }
# Not for one hand-in (SUBMISSION=): its grading is the grader's everyday work, as in make
# grade-all, which does not test the grader either; a plain make check does, every time.
[ -n "$submission" ] || after_check selftest_check boot "harness self-test" "harness self-test" "${labs[0]} $selftest_variant"

if [ -z "$submission" ]; then
	# A lab's reference reproducer fails on its start kernel and passes on the solved one.
	reproducers_check() { "$top/vm/check/check-reproducers.sh" "${labs[@]}"; }
	after_check reproducers_check boot "reference reproducers" "reference reproducers (vm/check/check-reproducers.sh)"
	# Every patch of the series and every solution: kernel style, no checkpatch errors.
	checkpatch_check() {
		local rc=0
		"$top/vm/check/checkpatch.sh" >"$results/checkpatch.txt" 2>&1 || rc=$?
		echo "checkpatch: $(grep -c ': WARNING:' "$results/checkpatch.txt") warning(s), errors fail the run (results/checkpatch.txt)"
		return "$rc"
	}
	after_check checkpatch_check other checkpatch "checkpatch (results/checkpatch.txt)"
	# The docs, rendered in a real browser: links, images, figures, a screenshot a page.
	docs_check() {
		local rc=0
		"$top/vm/docs/check.sh" >"$results/docs-check.txt" 2>&1 || rc=$?
		tail -3 "$results/docs-check.txt"
		return "$rc"
	}
	after_check docs_check other docs-check "docs (results/docs-check.txt)"
	# Every handout's grading table is the one tests.conf gives, and adds up to what
	# this run graded each lab's solved tree out of.
	tables_check() { "$top/vm/check/handout-tables.sh" "$results/results.tsv"; }
	after_check tables_check other "handout grading tables" "handout grading tables"
	# Every handout's contract box (what a hand-in may change, the names the grader and
	# the walkthroughs depend on) is what tests.conf, the tests and the walkthroughs give.
	contract_check() { "$top/vm/check/contract.py" --check; }
	after_check contract_check other "handout contracts" "handout contracts (vm/check/contract.py --write)"
	# Every exercise test that failed on a start tree said what it expected and got, and
	# no passing check prints a line that reads as an error (a stale errno).
	guest_logs() { find "$results" -maxdepth 1 -name "$1" | sort; } # PATTERN: the labs' guest logs
	fail_lines_check() {
		local logs
		mapfile -t logs < <(guest_logs 'lab*-start-smp*.log')
		[ "${#logs[@]}" -eq 0 ] || "$top/vm/check/fail-lines.py" "${logs[@]}"
	}
	after_check fail_lines_check other "failure messages" "failure messages (vm/check/fail-lines.py)"
	pass_lines_check() {
		local logs
		mapfile -t logs < <(guest_logs 'lab*-smp*.log')
		[ "${#logs[@]}" -eq 0 ] || "$top/vm/check/pass-lines.py" "${logs[@]}"
	}
	after_check pass_lines_check other "passing lines" "passing lines that read as errors"
	# The walkthroughs' constants (gdbscripts/constants.py) are what the trees define.
	gdb_constants_check() {
		local k commits=()
		for k in "${kernels[@]}"; do
			[ ! -f "$BUILD/check/kernels/$k/commit" ] || commits+=("$(cat "$BUILD/check/kernels/$k/commit")")
		done
		"$top/vm/check/gdb-constants.py" "$BUILD/src" "${commits[@]}"
	}
	after_check gdb_constants_check other "GDB constants" "GDB constants (gdbscripts/constants.py)"
	# A handout's GDB steps are its walkthrough script's (which this run checked).
	handout_gdb_check() { "$top/vm/check/handout-gdb.py" --check; }
	after_check handout_gdb_check other "handout GDB steps" "handout GDB steps (vm/check/handout-gdb.py --write)"
fi

# The labs: a builder and the graders, apart. The builder makes every step's kernel in
# series order in the one build tree (vm/kernel/kernel.sh), each a small step from the
# one before, and says when each is ready. The graders (vm/grade/check-lab.sh) take the
# steps in the same order as their kernels come, STEP_JOBS at a time (default 2): where
# builds are long (a patch that changes sched.h), a grader waits for its kernel; where
# they are short, two labs' guests share the CPUs that one guest, often idle, left
# unused. GUEST_SLOTS (3) caps the guests running at once. Each step's lines are
# printed whole, in step order.
builder() {
	local i=0 step n variant kernel
	for step in "${steps[@]}"; do
		read -r n variant <<<"$step"
		kernel=
		# A kernel that does not apply or build is graded too: check-lab.sh gives every
		# declared test a zero row with the reason. A hand-in is never built here: its
		# grader prepares the tests first, then checks which files it may change.
		if [ "$variant" != submission ]; then
			kernel=$("$top/vm/kernel/kernel.sh" "$n" "$variant") || kernel=
		fi
		echo "$kernel" >"$steps_dir/$i.kernel"
		touch "$steps_dir/$i.ready"
		i=$((i + 1))
	done
	touch "$steps_dir/builder.done"
}
builder &
builder_pid=$!
# grade_step I: step I's grader, its lines in steps/I.out, its status in steps/I.rc.
grade_step() {
	local n variant v sub=() rc=0
	read -r n variant <<<"${steps[$1]}"
	v=$variant
	if [ "$variant" = submission ]; then v=start sub=("$submission"); fi
	"$top/vm/grade/check-lab.sh" "$n" "$v" "${sub[@]}" >"$steps_dir/$1.out" 2>&1 </dev/null || rc=$?
	echo "$rc" >"$steps_dir/$1.rc"
}
# print_done: the lines of each step done, in step order, as far as all before it are.
printed=0
print_done() {
	local n variant rc name
	while [ "$printed" -lt "${#steps[@]}" ] && [ -f "$steps_dir/$printed.rc" ]; do
		read -r n variant <<<"${steps[$printed]}"
		case "$variant" in
		start) name="lab $n start (exercise tests must fail)" ;;
		*) name="lab $n $variant" ;;
		esac
		cat "$steps_dir/$printed.out"
		rc=$(cat "$steps_dir/$printed.rc")
		case "$rc" in
		0) ;;
		3) failed+=("$name: GRADER ERROR, not the tree's (see its lines above)") ;;
		*) failed+=("$name") ;;
		esac
		printed=$((printed + 1))
	done
}
count_undone() { # DIR FIRST LAST: how many of FIRST..LAST-1 have no DIR/I.rc yet
	local i count=0
	for ((i = $2; i < $3; i++)); do [ -f "$1/$i.rc" ] || count=$((count + 1)); done
	echo "$count"
}
# start_afters: every check not started that may start now (its kernel built, the builder
# done, or the labs done: NEEDS above), while a lane is free.
labs_done=0
after_started=()
start_afters() {
	local i j fn category step need running
	for i in "${!after[@]}"; do
		[ -z "${after_started[$i]:-}" ] || continue
		IFS='|' read -r fn category step _ need <<<"${after[$i]}"
		case "$need" in
		all) [ "$labs_done" = 1 ] || continue ;;
		builder) [ -f "$steps_dir/builder.done" ] || ! kill -0 "$builder_pid" 2>/dev/null || continue ;;
		*) [ -f "$steps_dir/$need.ready" ] || continue ;;
		esac
		running=0
		for ((j = 0; j < ${#after[@]}; j++)); do
			[ -z "${after_started[$j]:-}" ] || [ -f "$after_dir/$j.rc" ] || running=$((running + 1))
		done
		[ "$running" -lt "${AFTER_JOBS:-2}" ] || return 0
		(
			rc=0
			timed "$category" "$step" "$fn" >"$after_dir/$i.out" 2>&1 </dev/null || rc=$?
			echo "$rc" >"$after_dir/$i.rc"
		) &
		after_started[i]=1
	done
}
launched=0
step_jobs=${STEP_JOBS:-2}
while [ "$launched" -lt "${#steps[@]}" ]; do
	# its kernel first (or the builder gone: the grader then says what is missing)
	while [ ! -f "$steps_dir/$launched.ready" ] && kill -0 "$builder_pid" 2>/dev/null; do
		start_afters
		sleep 1
	done
	while [ "$(count_undone "$steps_dir" "$printed" "$launched")" -ge "$step_jobs" ]; do
		start_afters
		sleep 1
		print_done
	done
	grade_step "$launched" &
	launched=$((launched + 1))
	start_afters
	print_done
done
while [ "$printed" -lt "${#steps[@]}" ]; do
	start_afters
	sleep 1
	print_done
done
wait "$builder_pid" || true
for ((i = 0; i < ${#steps[@]}; i++)); do
	kernel=$(cat "$steps_dir/$i.kernel" 2>/dev/null || true)
	[ -z "$kernel" ] || kernels+=("$(basename "$kernel")")
done
timing phase "$(($(date +%s) - t0))" "the labs: kernel builds beside the guests and the checks that need only some kernels"
t_after=$(date +%s)

labs_done=1
while [ "$(count_undone "$after_dir" 0 "${#after[@]}")" -gt 0 ]; do
	start_afters
	sleep 1
done
wait
i=0
for job in "${after[@]}"; do
	IFS='|' read -r _ _ _ why _ <<<"$job"
	cat "$after_dir/$i.out"
	[ "$(cat "$after_dir/$i.rc" 2>/dev/null || echo lost)" = 0 ] || failed+=("$why")
	i=$((i + 1))
done

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

awk -F'\t' 'FNR == 1 && $1 == "lab" { next } { max += $6; if ($5 == "PASS") got += $6; if ($5 == "PASS") p++; else f++ }
	END { printf "\nTotal score: %d/%d\n%d passed, %d failed\n", got, max, p, f }' "$results/results.tsv"
# Where the time went. Builds overlap the guests, so the parts add up to more than the wall.
awk -F'\t' -v wall="$(($(date +%s) - t0))" -v stored="${#kernels[@]}" '
	NR > 1 { sum[$1] += $2; n[$1]++ }
	END {
		printf "time: %d s (%d min) wall; kernel builds %d s (%d built, %d steps in all), guest boots %d s (%d), GDB walkthroughs %d s (%d), other %d s\n",
			wall, wall / 60, sum["build"], n["build"], stored, sum["boot"], n["boot"], sum["gdb"], n["gdb"], sum["other"]
	}' "$TIMING_FILE" </dev/null
"$top/vm/check/timing-top.sh" "$TIMING_FILE"
echo "(results in results/results.tsv, the time of each step in results/timing.tsv)"
if [ "${#failed[@]}" -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
