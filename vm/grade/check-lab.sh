#!/usr/bin/env bash
# Grade one lab: vm/grade/check-lab.sh LAB start|solved|own [SUBMISSION.patch]
# Gets the lab's kernel from vm/kernel/kernel.sh (start tree, solved tree, or start + a student's
# patch; built once per distinct tree), boots it once per SMP setting in
# labs/labLAB/tests.conf, and prints one line per declared test:
#   solved/submission/own: every test must pass (own: a student's tree, make grade,
#          whose kernel folder KERNEL_DIR names);
#   start: every "exercise" test must fail *gracefully* (exit 1, the test's own verdict:
#          a crash, a timeout or no result is a defect of the lab), every other test
#          must pass. A test that cannot fail is a defect.
# An optional challenge's hidden tests (labs/labLAB/challenge/challenge.conf: "challenge
# NAME POINTS", NAME.c beside it; make release leaves the folder out) run in the same
# boots as "challenge:NAME" rows: on the start tree they must fail like an exercise, on
# the solved tree (which has solutions/labLAB/challenge/ too) pass. For a hand-in or
# make grade they are extra points, printed apart: failing one is not failing the lab.
# A "panic" test runs alone in a boot of its own, once per SMP setting: it passes when
# the kernel panics as its source says (vm/grade/panic-result.sh).
# A lab whose tests.conf says "start-build OBJECT" checks its start tree by building that
# one object alone: its exercises are host checks that read the object's debug info, and
# its other tests run on the solved tree only.
# Kernel health is graded: a boot that hung, panicked, warned or leaked gets no points
# for any of its tests, and the line says why. A kernel that does not apply or build
# gets a zero row for every declared test, with the reason.
# Appends a row a test to results/results.tsv (vm/lib.sh results_row: lab variant boot test
# result points why log, under a header line), and writes what
# grading came to in results/TAG.status (TAG: labN-start, labN-solved, labN-submission...),
# a TSV "status why" with one row: graded, timeout (a boot hung), refused-path,
# does-not-apply, does-not-build (the hand-in's), or grader-error (the grader's: its tree
# or sandbox could not be set up; no row earns points and this exits 3). Stages after
# this one read that record, never these printed lines.
# Exit status: 0 every row as it must be, 1 not, 2 a tests.conf the grader cannot trust,
# 3 grader-error.
# The harness self-test (vm/check/selftest.sh) grades its cheat labs with the same code:
# LABS_DIR (default labs/), KERNEL_DIR (a kernel folder to use instead of building
# one) and RESULTS_DIR (default results/).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1 variant=$2 submission=${3:-}
labs=${LABS_DIR:-$top/labs}
conf="$labs/lab$lab/tests.conf"
[ -f "$conf" ] || die "no $conf"
results=${RESULTS_DIR:-$top/results}
mkdir -p "$results"
tag="lab$lab-$variant"
[ -z "$submission" ] || tag="lab$lab-submission"
rm -f "$results/$tag.status" # written at the end: none means the grader itself stopped
# CHECK_RUN_DIR: a scratch folder of one's own (make grade-all grades hand-ins in parallel).
work=${CHECK_RUN_DIR:-$BUILD/check/run/$tag}
rm -rf "$work"
mkdir -p "$work"

# --- tests.conf: every line is one the grader knows (vm/testsconf.py, its one reader) ---
records="$work/tests.conf.tsv"
"$top/vm/testsconf.py" "$labs/lab$lab" >"$records" || die "lab $lab's tests.conf cannot be trusted (above)"
# record KIND: the fields of tests.conf's KIND lines (vm/testsconf.py's records).
record() { awk -F'\t' -v k="$1" '$1 == k { sub(/^[^\t]*\t/, ""); print }' "$records"; }
# conf_lines: "KIND NAME POINTS FLAG" of each graded line, the hidden tests' last.
conf_lines() { awk -F'\t' '$1 ~ /^(test|exercise|gdb|panic|host|challenge)$/ { print $1, $2, $3, $4 }' "$records"; }
# expected_panic NAME: the ERE a panic test's header comment names ("Expected panic: ERE").
expected_panic() { sed -n 's/^ \* Expected panic: //p' "$labs/lab$lab/tests/$1.c" 2>/dev/null | head -1; }
smps=$(record smp)
# A boot is "N" (-smp N) or "N+MODE": -smp N with the kernel arguments of tests.conf's
# "mode MODE ARG..." line (Lab 7 boots asys in each of its modes).
mode_args() { awk -F'\t' -v m="$1" '$1 == "mode" && $2 == m { print $3; found = 1 } END { exit !found }' "$records"; }
# "start-smp BOOT...": the boots of make check's start tree, where each exercise test must
# fail (default: every boot of the smp line). A start tree is booted to prove that each
# exercise test can fail; once shows that where the failure does not hang on the number
# of CPUs, and the boot kept is the one with the most CPUs, where a concurrency defect
# shows. Hand-ins and make grade always boot every smp setting.
start_smps=$(record start-smp)
if [ "$variant" = start ] && [ -z "$submission" ] && [ -n "$start_smps" ]; then smps=$start_smps; fi
disk_size=$(record disk)

failed=0 got=0 max=0 challenge_got=0 challenge_max=0 hung=0 row_log=-
# reference=1 when this run grades the lab's own trees (make check's start or solved),
# where every row must come out right, challenge rows too.
reference=0
if [ -z "$submission" ] && [ "$variant" != own ]; then reference=1; fi
# row NAME PASS|FAIL POINTS WHY: one graded line, on screen and in results.tsv.
row() {
	local name=$1 verdict=$2 pts=$3 why=$4
	printf '  %-34s %s (%s pts)\n' "$name" "$verdict${why:+ ($why)}" "$pts"
	results_row "$results/results.tsv" "$lab" "${tag#lab"$lab"-}" "$smp" "$name" \
		"$([ "$verdict" = OK ] && echo PASS || echo FAIL)" "$pts" "$why" "${row_log:--}"
	case "$name" in
	challenge:*)
		challenge_max=$((challenge_max + pts))
		if [ "$verdict" = OK ]; then challenge_got=$((challenge_got + pts)); elif [ "$reference" = 1 ]; then failed=1; fi
		return ;;
	esac
	max=$((max + pts))
	if [ "$verdict" = OK ]; then got=$((got + pts)); else failed=1; fi
}
# score_lines: the lab's score, and the challenge's apart (optional: not in the lab's).
score_lines() {
	echo "Score: lab $lab ${tag#lab"$lab"-}: $got/$max"
	if [ "$challenge_max" -gt 0 ]; then
		echo "Challenge: lab $lab ${tag#lab"$lab"-}: $challenge_got/$challenge_max (optional, hidden tests; not in the score above)"
	fi
}

# grade NAME RESULT POINTS MUST_FAIL: RESULT is tap_result's (pass, fail N, none, several,
# forged-exit N, no-summary);
# a host check's is pass, fail 1 (the behaviour is missing) or fail N>=2 (it could not check).
grade() {
	local name=$1 result=$2 pts=$3 must_fail=$4
	if [ -n "$unhealthy" ]; then row "$name" FAIL "$pts" "no points: $unhealthy"; return; fi
	case "$must_fail:$result" in
	0:pass) row "$name" OK "$pts" "" ;;
	1:pass) row "$name" FAIL "$pts" "passes on the start tree: it cannot fail" ;;
	1:"fail 1") row "$name" OK "$pts" "fails on the start tree, as it must" ;;
	1:fail*) row "$name" FAIL "$pts" "fails on the start tree by exit ${result#fail }, not by its own check: a defect of the lab" ;;
	1:crash*) row "$name" FAIL "$pts" "fails on the start tree by a crash (${result#crash }), not by its own check: a defect of the lab" ;;
	*:crash*) row "$name" FAIL "$pts" "${result#crash }" ;;
	*:"fail 1") row "$name" FAIL "$pts" "" ;;
	*:fail*) row "$name" FAIL "$pts" "exit ${result#fail }" ;;
	*:forged-exit*) row "$name" FAIL "$pts" "exit 0, but its own summary counts ${result#forged-exit } failed check(s): the exit status was rewritten" ;;
	*:no-summary) row "$name" FAIL "$pts" "exit 0 without its summary line (labtest_done() with this boot's nonce): it stopped early, or its output is not its own" ;;
	*:none) row "$name" FAIL "$pts" "no result (did the guest die?)" ;;
	*:several) row "$name" FAIL "$pts" "more than one result line for it: one was forged" ;;
	esac
}

# status_record STATUS WHY: results/TAG.status (above).
status_record() { printf 'status\twhy\n%s\t%s\n' "$1" "$2" >"$results/$tag.status"; }

# zero_rows STATUS WHY: every row the lab declares, at zero, when there is no kernel to test.
zero_rows() {
	local status=$1
	shift
	echo "== lab $lab: $variant${submission:+ + $(basename "$submission")}: $status: $1 =="
	unhealthy="$status: $1"
	for smp in $smps; do
		while read -r kind name pts _; do
			case "$kind" in
			test | exercise | host | panic) grade "$name" none "$pts" 0 ;;
			challenge) grade "challenge:$name" none "$pts" 0 ;;
			esac
		done < <(conf_lines)
	done
	smp=1
	while read -r kind name pts _; do
		[ "$kind" != gdb ] || grade "gdb:$name" none "$pts" 0
	done < <(conf_lines)
	score_lines
	status_record "$status" "$1"
	if [ "$status" = grader-error ]; then
		echo "  GRADER ERROR: the grader failed before the hand-in's code ran; these zeros are not the hand-in's"
		exit 3
	fi
	exit 1
}

# --- what the grade depends on, prepared before any hand-in is applied ---
only_object=
if [ "$variant" = start ] && [ -z "$submission" ]; then only_object=$(record start-build); fi
[ -n "$only_object" ] || LABS_DIR=$labs "$top/vm/boot/lab-initramfs.sh" "$lab" "$work/initramfs.cpio.gz" "$work/tests"

# --- a hand-in may change only what the lab's exercises need ---
# tests.conf "handin-paths PREFIX..." lists them; build files (Makefile, Kbuild,
# Kconfig), scripts/ and the kernel self-tests the lab's tests read are never a
# hand-in's, whatever the prefixes say.
if [ -n "$submission" ]; then
	allowed=$(record handin-paths)
	refused=()
	while read -r file; do
		handin_path_allowed "$allowed" "$file" || refused+=("$file")
	done < <(sed -nE 's#^(\+\+\+|---) [ab]/##p; s#^rename (from|to) ##p' "$submission" | grep -v '^/dev/null$' | sort -u)
	if [ "${#refused[@]}" -gt 0 ]; then
		echo "hand-in refused: it changes ${refused[*]}; lab $lab's hand-ins may change only: ${allowed:-nothing}" \
			"(and never build files, scripts/ or the kernel self-tests the tests read)"
		zero_rows refused-path "${refused[0]}$([ "${#refused[@]}" -gt 1 ] && echo " and $((${#refused[@]} - 1)) more")"
	fi
fi

# --- the kernel ---
# (make check built it already, while the previous lab's guests ran: this is a look-up.)
unhealthy=
set +e
if [ -n "${KERNEL_DIR:-}" ]; then
	kernel=$KERNEL_DIR rc=0
else
	kernel=$("$top/vm/kernel/kernel.sh" "$lab" "$variant" ${submission:+"$submission"})
	rc=$?
fi
set -e
case "$rc" in
0) ;;
3) zero_rows does-not-apply "the patches do not apply to the lab's tree" ;;
4) zero_rows does-not-build "the kernel does not build" ;;
5) zero_rows grader-error "the grader could not prepare the tree or the sandbox to build it in (vm/kernel/kernel.sh exit 5; its messages are above)" ;;
*) zero_rows grader-error "no kernel: vm/kernel/kernel.sh failed (exit $rc)" ;;
esac
debuginfo="$kernel/vmlinux"
# A hand-in's kernel (and a student's own, make grade) is hostile code: its guests run in
# QEMU confined (vm/boot/qemu.sh --confine). The lab's own trees run as they are.
confine=()
if [ -n "$submission" ] || [ "$variant" = own ]; then confine=(--confine); fi
[ -z "$only_object" ] || debuginfo="$kernel/debug.o"

# host_result NAME SMP LOG: run labs/labLAB/host/NAME.sh; prints pass or fail EXIT.
host_result() {
	local t0 rc=0
	t0=$(date +%s)
	# HOST_DIR and HOST_LOG: where a check that boots a guest of its own writes (this
	# run's own, so that two hand-ins graded at once do not share them).
	LOG=$3 DISK=${disk:-} KERNEL=$kernel DEBUGINFO=$debuginfo VARIANT=$variant \
		HOST_DIR="$work/host-$1-smp$2" HOST_LOG="$results/$tag-host-$1-smp$2.guest-log" \
		SOURCE_GIT="$BUILD/src" SOURCE_COMMIT=$(cat "$kernel/commit" 2>/dev/null || true) \
		bash "$labs/lab$lab/host/$1.sh" >"$results/$tag-smp$2-$1.out" 2>&1 </dev/null || rc=$?
	timing other "$(($(date +%s) - t0))" "lab $lab $variant host $1"
	if [ "$rc" = 0 ]; then echo pass; else echo "fail $rc"; fi
}
# must_fail KIND FLAG: 1 when this test must fail here (an exercise on the start tree).
must_fail() {
	if [ "$variant" = start ] && [ -z "$submission" ] && { [ "$1" = exercise ] || [ "$1" = challenge ] || [ "$2" = exercise ]; }; then
		echo 1
	else
		echo 0
	fi
}

if [ -n "$only_object" ]; then
	echo "== lab $lab: $variant, $only_object alone (its debug info is what the exercise checks) =="
	smp=-
	while read -r kind name pts flag; do
		if [ "$kind" != host ] || [ "${flag:-}" != exercise ]; then continue; fi
		row_log=${results#"$top"/}/$tag-smp0-$name.out
		grade "$name" "$(host_result "$name" 0 /dev/null)" "$pts" 1
	done < <(conf_lines)
	smps=
fi

# boot_setting SMP: cpus, mode and boot_args of one boot ("N" or "N+MODE").
boot_setting() {
	cpus=${1%%+*} mode='' boot_args=''
	if [ "$cpus" != "$1" ]; then mode=${1#*+} boot_args=$(mode_args "$mode"); fi
}
# boot_tests SMP: one boot that runs the lab's tests (/tests/list), its log in results/,
# its nonce, verdict and time in the run's folder. Boots are independent of each other.
boot_tests() {
	local smp=$1 disk_args=()
	boot_setting "$smp"
	if [ -n "$disk_size" ]; then
		"$top/vm/boot/disk.sh" "$work/disk-smp$smp.img" "$disk_size" >/dev/null
		disk_args=(--disk "$work/disk-smp$smp.img")
	fi
	od -An -N8 -tx1 /dev/urandom | tr -d ' \n' >"$work/nonce-smp$smp"
	with_guest_slot run_tests_guest "$smp" "${disk_args[@]}"
}
# run_tests_guest SMP [--disk IMG]: the guest of boot_tests, timed from its start.
# shellcheck disable=SC2317 # run by with_guest_slot
run_tests_guest() {
	local smp=$1 t0
	shift
	t0=$(date +%s)
	APPEND="${APPEND:-}${boot_args:+ $boot_args}" "$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" \
		--initrd "$work/initramfs.cpio.gz" --mode test --smp "$cpus" --timeout "${GUEST_TIMEOUT:-900}" \
		--log "$results/$tag-smp$smp.log" --nonce "$(cat "$work/nonce-smp$smp")" \
		--verdict "$work/verdict-smp$smp" "${confine[@]}" "$@" >/dev/null 2>"$work/qemu-smp$smp.err" || true
	echo "$(($(date +%s) - t0))" >"$work/seconds-smp$smp"
	timing boot "$(($(date +%s) - t0))" "lab $lab $variant -smp $smp"
}

# The boots run BOOT_JOBS at a time (default 2): a guest spends much of its time idle
# (the leak scan's 6 s, RCU grace periods, sleeps a test waits through), and the two
# CPUs of this machine run two guests in little more time than one. Then each boot is
# graded, in tests.conf's order.
boot_jobs=${BOOT_JOBS:-2}
for smp in $smps; do
	while [ "$(jobs -rp | wc -l)" -ge "$boot_jobs" ]; do wait -n || true; done
	boot_tests "$smp" &
done
wait

for smp in $smps; do
	boot_setting "$smp"
	echo "== lab $lab: $variant${submission:+ + $(basename "$submission")}, -smp $cpus${mode:+, $mode mode ($boot_args)} =="
	log="$results/$tag-smp$smp.log"
	row_log=${log#"$top"/}
	disk=
	[ -z "$disk_size" ] || disk="$work/disk-smp$smp.img"
	nonce=$(cat "$work/nonce-smp$smp" 2>/dev/null || echo none)
	echo "  (guest ran $(cat "$work/seconds-smp$smp" 2>/dev/null || echo no) s, log: ${log#"$top"/})"
	guest_test_seconds "$log" "lab $lab $variant -smp $smp"

	# Kernel health first: it decides whether this boot's tests earn anything.
	unhealthy=
	guest=$(cat "$work/verdict-smp$smp" 2>/dev/null || echo qemu-failed)
	case "$guest" in
	"status 0") ;;
	hang)
		unhealthy="the guest hung (no end within ${GUEST_TIMEOUT:-900} s)"
		hung=1 ;;
	died) unhealthy="the guest died before its end line (panic?)" ;;
	qemu-failed) unhealthy="QEMU failed: $(tail -1 "$work/qemu-smp$smp.err" 2>/dev/null || echo "the boot did not start")" ;;
	*) unhealthy="the guest's init ended with ${guest#status }" ;;
	esac
	if ! "$top/vm/logscan.sh" "$log" >"$results/$tag-smp$smp.kernel-problems"; then
		unhealthy="${unhealthy:+$unhealthy; }kernel problem: $(head -1 "$results/$tag-smp$smp.kernel-problems" | cut -c1-100)"
	fi
	if [ -n "$unhealthy" ]; then
		echo "  this boot earns nothing: $unhealthy"
		sed 's/^/    /' "$results/$tag-smp$smp.kernel-problems" | head -20
	fi

	while read -r kind name pts flag; do
		case "$kind" in
		test | exercise) grade "$name" "$(tap_result "$log" "$nonce" "$name")" "$pts" "$(must_fail "$kind" "${flag:-}")" ;;
		host)
			row_log=${results#"$top"/}/$tag-smp$smp-$name.out
			grade "$name" "$(host_result "$name" "$smp" "$log")" "$pts" "$(must_fail "$kind" "${flag:-}")"
			row_log=${log#"$top"/} ;;
		challenge) grade "challenge:$name" "$(tap_result "$log" "$nonce" "$name")" "$pts" "$(must_fail "$kind" "")" ;;
		esac
	done < <(conf_lines)
	# The disk was checked (Lab 1's e2fsck): 96 MiB a boot is not worth keeping.
	[ -z "$disk" ] || rm -f "$disk"

	# Panic tests: one boot each, the program alone; the panic is the pass.
	unhealthy=
	while read -r kind name pts flag; do
		[ "$kind" = panic ] || continue
		echo "== lab $lab: $variant${submission:+ + $(basename "$submission")}, -smp $smp, panic test $name =="
		plog="$results/$tag-smp$smp-panic-$name.log"
		row_log=${plog#"$top"/}
		"$top/vm/boot/initramfs.sh" "$work/panic-$name.cpio.gz" --run "$work/tests/$name"
		t0=$(date +%s)
		APPEND="${APPEND:-}${boot_args:+ $boot_args}" "$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" --initrd "$work/panic-$name.cpio.gz" \
			--mode run --smp "$cpus" --timeout "${GUEST_TIMEOUT:-900}" --log "$plog" \
			--verdict "$work/verdict-smp$smp-panic-$name" "${confine[@]}" >/dev/null 2>"$work/qemu-smp$smp-panic-$name.err" || true
		timing boot "$(($(date +%s) - t0))" "lab $lab $variant -smp $smp panic $name"
		grade "$name" "$("$top/vm/grade/panic-result.sh" "$plog" \
			"$(cat "$work/verdict-smp$smp-panic-$name" 2>/dev/null || echo qemu-failed)" \
			"$(expected_panic "$name")")" "$pts" "$(must_fail "$flag" "")"
	done < <(conf_lines)
done
unhealthy=

# GDB walkthroughs are graded on the solved tree only: they follow the reference code.
if [ "$variant" = solved ] || [ "$variant" = own ] || [ -n "$submission" ]; then
	smp=1
	while read -r kind name pts _; do
		[ "$kind" = gdb ] || continue
		echo "== lab $lab: GDB walkthrough $name =="
		result=pass
		t0=$(date +%s)
		row_log=${results#"$top"/}/$tag-gdb-$name.log
		"$top/vm/grade/gdb-check.sh" "$lab" "$name" "$kernel" "$work" "${confine[@]}" >"$results/$tag-gdb-$name.log" 2>&1 || result="fail 1"
		timing gdb "$(($(date +%s) - t0))" "lab $lab $name"
		[ "$result" = pass ] || tail -15 "$results/$tag-gdb-$name.log" | sed 's/^/    /'
		grade "gdb:$name" "$result" "$pts" 0
	done < <(conf_lines)
fi

score_lines
if [ "$hung" = 1 ]; then status_record timeout "a guest hung"; else status_record graded ""; fi
[ "$failed" = 0 ] || echo "  failing guest logs are in results/ (named $tag-smp*.log)"
exit "$failed"
