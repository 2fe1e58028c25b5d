#!/usr/bin/env bash
# vm/selftest.sh KERNEL: the grader's own must-fail checks. A guest whose kernel panics
# and a guest that hangs must both be reported as failures, within the timeout,
# with the panic found in the log. Prints TAP-like lines; exit 1 if the grader missed one.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

kernel=$1
work="$BUILD/selftest"
mkdir -p "$work" "$top/results"
failed=0
row() { printf 'harness\tselftest\t1\t%s\t%s\t0\n' "$1" "$2" >>"$top/results/results.tsv"; }
expect() { # name want-rc got-rc
	if [ "$3" = "$2" ]; then
		echo "  harness:$1 OK (guest status $3)"; row "$1" PASS
	else
		echo "  harness:$1 FAIL (wanted guest status $2, got $3)"; row "$1" FAIL; failed=1
	fi
}

echo "== harness self-test: the grader must catch a crashed and a hung guest =="
for name in crash hang; do
	gcc -m32 -static -O2 -o "$work/$name" "$top/vm/selftest/$name.c"
	"$top/vm/initramfs.sh" "$work/$name.cpio.gz" --run "$work/$name"
done

# boot NAME TIMEOUT: run the NAME program in a guest; prints the guest status.
boot() {
	local rc=0
	"$top/vm/qemu.sh" --kernel "$kernel" --initrd "$work/$1.cpio.gz" --mode run --timeout "$2" \
		--log "$top/results/selftest-$1.log" >/dev/null 2>&1 || rc=$?
	echo "$rc"
}

expect crash-reported 125 "$(boot crash 120)"
if "$top/vm/logscan.sh" "$top/results/selftest-crash.log" >/dev/null; then
	echo "  harness:crash-in-log FAIL (logscan missed the panic)"; row crash-in-log FAIL; failed=1
else
	echo "  harness:crash-in-log OK"; row crash-in-log PASS
fi
expect hang-reported 124 "$(boot hang 15)"
exit "$failed"
