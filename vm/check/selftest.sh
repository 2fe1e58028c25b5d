#!/usr/bin/env bash
# vm/check/selftest.sh KERNEL_DIR: the grader's own must-fail checks, on a built lab kernel.
#  - a guest whose kernel panics, and one that hangs, are reported as such (and the
#    guest really ran: a kernel that never booted must not pass for them);
#  - a QEMU that cannot start is reported as a failure, never as a guest's status;
#  - the cheat labs (vm/check/selftest/labs) are graded by vm/grade/check-lab.sh itself, and each
#    row must come out as written below: a forged "ok" line, an exit status 0 that its own
#    summary contradicts (a kernel that rewrote it), a test that stops early, a failing test, a crash
#    on a start tree, a kernel warning in a passing boot, and for panic tests a wrong
#    panic, a panic before the test armed, a panic line printed by the program itself,
#    and a kernel that did not panic (a pass only as an exercise on a start tree), and
#    an optional challenge's hidden tests (must fail on a start tree, pass solved, and
#    never fail a student's own grade).
# Prints one line per check; exit 1 if the grader got one wrong.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

kernel=$1
[ -f "$kernel/bzImage" ] || die "usage: $0 KERNEL_DIR (a vm/kernel/kernel.sh folder with a bzImage)"
work="$BUILD/selftest"
rm -rf "$work"
mkdir -p "$work" "$top/results"
failed=0
row() { results_row "$top/results/results.tsv" harness selftest - "$1" "$2" 0 "" -; }
check() { # name ok(0/1) detail
	if [ "$2" = 1 ]; then echo "  harness:$1 OK ($3)"; row "$1" PASS; else
		echo "  harness:$1 FAIL ($3)"; row "$1" FAIL; failed=1; fi
}

echo "== harness self-test: the grader must catch a crash, a hang, a QEMU that fails, and cheats =="
for name in crash hang; do
	gcc -m32 -static -O2 -o "$work/$name" "$top/vm/check/selftest/$name.c"
	"$top/vm/boot/initramfs.sh" "$work/$name.cpio.gz" --run "$work/$name"
done

# boot NAME TIMEOUT: run the NAME program in a guest; prints qemu.sh's status and verdict.
boot() {
	local rc=0
	"$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" --initrd "$work/$1.cpio.gz" --mode run --timeout "$2" \
		--log "$top/results/selftest-$1.log" --verdict "$work/$1.verdict" >/dev/null 2>&1 || rc=$?
	echo "$rc $(cat "$work/$1.verdict" 2>/dev/null || echo none)"
}

got=$(boot crash 120)
ran=0
grep -q '^selftest: crashing the kernel now' "$top/results/selftest-crash.log" && ran=1
check crash-reported "$([ "$got" = "125 died" ] && [ "$ran" = 1 ] && echo 1 || echo 0)" "status and verdict: $got; the program ran: $ran"
if "$top/vm/logscan.sh" "$top/results/selftest-crash.log" >/dev/null; then
	check crash-in-log 0 "logscan missed the panic"
else
	check crash-in-log 1 "logscan found the panic"
fi

got=$(boot hang 20)
ran=0
grep -q '^selftest: hanging now' "$top/results/selftest-hang.log" && ran=1
check hang-reported "$([ "$got" = "124 hang" ] && [ "$ran" = 1 ] && echo 1 || echo 0)" "status and verdict: $got; the program ran: $ran"

# QEMU that cannot start (an unknown device): its exit 1 must not read as a guest's 0.
got=$(QEMU_EXTRA="-device no-such-device" boot crash 60)
check qemu-failure-reported "$([ "$got" = "126 qemu-failed" ] && echo 1 || echo 0)" "status and verdict: $got"

# A hand-in's guest runs in QEMU confined (vm/boot/qemu.sh --confine): as nobody, the
# machine read-only. Asked for a disk that only root may read, or for one outside its own
# folder to write, that QEMU must fail to open it: what the guest could reach through
# QEMU, a file the grader did not give it, it cannot.
printf 'the grader holds this\n' >"$work/root-only.img"
chmod 600 "$work/root-only.img"
printf 'the grader holds this too\n' >"$work/outside.img"
confined_open() { # FILE DRIVE-OPTIONS: QEMU's exit and the reason it gave
	local rc=0
	QEMU_EXTRA="-drive file=$1,format=raw,if=virtio$2" "$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" \
		--initrd "$work/crash.cpio.gz" --mode run --timeout 60 --confine --log "$work/confined.log" \
		--verdict "$work/confined.verdict" >/dev/null 2>"$work/confined.err" || rc=$?
	echo "$rc $(cat "$work/confined.verdict" 2>/dev/null || echo none): $(grep -o "Could not open '[^']*': .*" "$work/confined.err" | head -1 | sed 's/.*: //')"
}
read_secret=$(confined_open "$work/root-only.img" ",readonly=on")
write_outside=$(confined_open "$work/outside.img" "")
check confined-qemu "$([[ "$read_secret" == "126 qemu-failed: "?* ]] &&
	[[ "$write_outside" == "126 qemu-failed: "?* ]] && [ "$(cat "$work/outside.img")" = "the grader holds this too" ] && echo 1 || echo 0)" \
	"a root-only disk: $read_secret; a disk outside its folder, to write: $write_outside"

# The sandbox a hand-in's build runs in: its own folder is writable, the harness, the
# results and the kernel store are not, and no host secret is readable.
mkdir -p "$work/sandbox"
"$top/vm/sandbox.sh" "$work/sandbox" -- sh -c "
	echo own >'$work/sandbox/own' || exit 1
	for f in '$top/vm/boot/guest/init' '$top/results/results.tsv' '$BUILD/check/kernels/forged'; do
		if echo cheat >>\"\$f\" 2>/dev/null; then echo \"wrote \$f\"; exit 2; fi
	done
	if cat /etc/shadow >/dev/null 2>&1; then echo 'read /etc/shadow'; exit 3; fi
	exit 0" >"$work/sandbox.out" 2>&1 && sandbox_rc=0 || sandbox_rc=$?
check sandbox-confines-a-build "$([ "$sandbox_rc" = 0 ] && [ -f "$work/sandbox/own" ] && echo 1 || echo 0)" \
	"exit $sandbox_rc: $(tr '\n' ' ' <"$work/sandbox.out")wrote its own folder: $([ -f "$work/sandbox/own" ] && echo yes || echo no)"

# The sandbox from folders where instructors met it failing, the grader's files kept at
# their own paths: under the private /tmp, below a folder of mode 0700 (a home that
# Debian's adduser makes), on a path with spaces, and in a repository whose own folder
# is 0700 (a student edition: make check SUBMISSION= there found it). It must start, read the build
# script and the tree, and write its folder, as nobody; a bwrap that cannot start must
# say so with exit 125 (the grader's failure: vm/kernel/kernel.sh's grader-error).
places_ok=() places_bad=()
tmp_place=$(mktemp -d)
places=("$tmp_place/clone" "$work/home 0700/user/clone" "$work/with spaces/clone" "$work/repo 0700/clone")
# obj PLACE: the build folder: beside the repository, or in it (its build/, as in an edition)
obj() { case "$1" in *"repo 0700"*) echo "$1/repo/build/obj" ;; *) echo "$1/obj" ;; esac; }
for place in "${places[@]}"; do
	mkdir -p "$place/repo/tree" "$(obj "$place")"
	# shellcheck disable=SC2016 # the script's own $1, $2 and $(...)
	printf '#!/bin/sh\ncat "$1/Makefile" >"$2/built" && echo "built as $(id -un)"\n' >"$place/repo/build.sh"
	chmod 755 "$place/repo/build.sh"
	echo 'all:' >"$place/repo/tree/Makefile"
done
# the last: the repository's own folder of mode 0700, as make release makes a student edition
chmod 700 "$work/home 0700" "$tmp_place" "$work/repo 0700/clone/repo"
for place in "${places[@]}"; do
	if "$top/vm/sandbox.sh" --ro "$place/repo" "$(obj "$place")" -- "$place/repo/build.sh" "$place/repo/tree" "$(obj "$place")" \
		>"$work/sandbox-place.out" 2>&1 && [ -f "$(obj "$place")/built" ]; then
		places_ok+=("${place#"$work"/}")
	else
		places_bad+=("${place#"$work"/}: $(tail -1 "$work/sandbox-place.out")")
	fi
done
mkdir -p "$work/no-bwrap"
printf '#!/bin/sh\nexit 1\n' >"$work/no-bwrap/bwrap"
chmod 755 "$work/no-bwrap/bwrap"
rc=0
PATH="$work/no-bwrap:$PATH" "$top/vm/sandbox.sh" --ro "$tmp_place/clone/repo" "$tmp_place/clone/obj" -- /bin/true \
	>"$work/sandbox-nobwrap.out" 2>&1 || rc=$?
rm -rf "$tmp_place"
check sandbox-from-any-folder "$([ "${#places_bad[@]}" = 0 ] && [ "$rc" = 125 ] && echo 1 || echo 0)" \
	"built in ${#places_ok[@]} of 4 places (under /tmp, below 0700, with spaces, in a 0700 repository)${places_bad[*]:+; not: ${places_bad[*]}}; a bwrap that cannot start: exit $rc (125 wanted)"

# The cheat labs, graded by the real grader. Expected: "lab variant test PASS|FAIL".
expected="$work/expected.tsv"
cat >"$expected" <<'ROWS'
90	solved	honest	PASS
90	solved	exits1	FAIL
90	solved	forged	FAIL
90	solved	crash	FAIL
90	solved	rewritten	FAIL
90	solved	quits	FAIL
90	solved	graceful	FAIL
90	start	honest	PASS
90	start	exits1	FAIL
90	start	forged	FAIL
90	start	crash	FAIL
90	start	rewritten	FAIL
90	start	quits	FAIL
90	start	graceful	PASS
91	solved	honest	FAIL
91	solved	warn	FAIL
94	solved	expected	PASS
94	solved	wrong	FAIL
94	solved	early	FAIL
94	solved	forged	FAIL
94	solved	survives	FAIL
95	start	survives	PASS
96	solved	cmdline	FAIL,PASS
98	start	challenge:hidden_pass	FAIL
98	start	challenge:hidden_fail	PASS
98	solved	challenge:hidden_pass	PASS
98	solved	challenge:hidden_fail	FAIL
ROWS
mkdir -p "$work/results"
for run in "90 solved" "90 start" "91 solved" "94 solved" "95 start" "96 solved" "98 start" "98 solved"; do
	read -r n v <<<"$run"
	LABS_DIR="$top/vm/check/selftest/labs" KERNEL_DIR=$kernel RESULTS_DIR="$work/results" \
		"$top/vm/grade/check-lab.sh" "$n" "$v" >"$work/lab$n-$v.out" 2>&1 || true
done
# A hand-in outside the lab's handin-paths (lab 90 allows fs/proc/ only): refused before
# anything is applied, every row at zero.
cat >"$work/refused.patch" <<'PATCH'
From: Student <student@fibrils.invalid>
Subject: [PATCH] cheat: a Makefile that rewrites the grader

---
diff --git a/kernel/Makefile b/kernel/Makefile
--- a/kernel/Makefile
+++ b/kernel/Makefile
@@ -1,1 +1,2 @@
+$(shell echo pwned >$(srctree)/../../../vm/boot/guest/init)
 # SPDX-License-Identifier: GPL-2.0
PATCH
LABS_DIR="$top/vm/check/selftest/labs" KERNEL_DIR=$kernel RESULTS_DIR="$work/results-refused" \
	"$top/vm/grade/check-lab.sh" 90 start "$work/refused.patch" >"$work/refused.out" 2>&1 || true
rows=$(grep -c 'FAIL (no points: refused-path: kernel/Makefile)' "$work/refused.out" || true)
declared=$("$top/vm/testsconf.py" "$top/vm/check/selftest/labs/lab90" | awk -F'\t' '$1 ~ /^(test|exercise)$/' | wc -l)
check refused-handin "$([ "$rows" = "$declared" ] && ! grep -q PASS "$work/results-refused/results.tsv" && echo 1 || echo 0)" \
	"$rows of $declared rows at zero, 'refused-path: kernel/Makefile'"

# A student's own tree (make grade) with a challenge it did not solve: the challenge row
# is at zero, the lab's score stays whole and the grade does not fail.
rc=0
LABS_DIR="$top/vm/check/selftest/labs" KERNEL_DIR=$kernel RESULTS_DIR="$work/results-own" \
	"$top/vm/grade/check-lab.sh" 98 own >"$work/lab98-own.out" 2>&1 || rc=$?
check challenge-is-optional "$([ "$rc" = 0 ] && grep -qx 'Score: lab 98 own: 1/1' "$work/lab98-own.out" &&
	grep -q '^Challenge: lab 98 own: 1/2 ' "$work/lab98-own.out" && echo 1 || echo 0)" \
	"exit $rc; $(grep -E '^(Score|Challenge):' "$work/lab98-own.out" | cut -c1-60 | paste -sd';' -)"

# tests.conf the grader cannot trust: an unknown line (lab 92), no smp line (lab 93), a
# boot in a mode no line defines (lab 97), a hidden challenge's line where students read
# it (lab 99).
for n in 92 93 97 99; do
	rc=0
	LABS_DIR="$top/vm/check/selftest/labs" KERNEL_DIR=$kernel RESULTS_DIR="$work/results-$n" \
		"$top/vm/grade/check-lab.sh" "$n" solved >"$work/lab$n.out" 2>&1 || rc=$?
	check "bad-tests-conf-lab$n" "$([ "$rc" != 0 ] && grep -q 'error:' "$work/lab$n.out" && echo 1 || echo 0)" \
		"exit $rc: $(grep 'error:' "$work/lab$n.out" | head -1 | cut -c1-110)"
done

while IFS=$'\t' read -r n v name want; do
	got=$(awk -F'\t' -v n="$n" -v v="$v" -v t="$name" '$1 == n && $2 == v && $4 == t { print $5 }' \
		"$work/results/results.tsv" 2>/dev/null | paste -sd, -)
	why=$(grep -hE -- "^  $name +(OK|FAIL)" "$work/lab$n-$v.out" | head -1 | sed "s/^ *//; s/  */ /g" || true)
	check "cheat-lab$n-$v-$name" "$([ "$got" = "$want" ] && echo 1 || echo 0)" "want $want, graded ${got:-nothing}: ${why:-no row}"
done <"$expected"
exit "$failed"
