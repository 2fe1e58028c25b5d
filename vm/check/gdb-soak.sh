#!/usr/bin/env bash
# make gdb-soak LAB=n [RUNS=10]: run each GDB walkthrough of lab n (the "gdb" lines of
# its tests.conf) RUNS times in a row on the lab's solved kernel, the way make check
# runs it once, and report every run. A walkthrough that passes once and fails on the
# fifth run depends on timing; make check must never meet it.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1 runs=${2:-10}
conf="$top/labs/lab$lab/tests.conf"
[ -f "$conf" ] || die "LAB=$lab: there is no labs/lab$lab/tests.conf"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS=$runs: give a whole number of runs"
mapfile -t names < <("$top/vm/testsconf.py" "$top/labs/lab$lab" gdb | cut -f1)
[ "${#names[@]}" -gt 0 ] || die "lab $lab has no GDB walkthrough"
# KERNEL_DIR: a kernel folder to soak instead of the lab's solved one (vm/kernel/kernel.sh).
kernel=${KERNEL_DIR:-$("$top/vm/kernel/kernel.sh" "$lab" solved)}
work="$BUILD/gdb-soak/lab$lab"
mkdir -p "$work" "$top/results"

bad=0
for name in "${names[@]}"; do
	passed=0
	for ((i = 1; i <= runs; i++)); do
		log="$top/results/gdb-soak-$name-$i.log"
		t0=$(date +%s)
		if "$top/vm/grade/gdb-check.sh" "$lab" "$name" "$kernel" "$work" >"$log" 2>&1; then
			passed=$((passed + 1))
			echo "  $name run $i/$runs: OK ($(($(date +%s) - t0)) s)"
		else
			echo "  $name run $i/$runs: FAIL ($(($(date +%s) - t0)) s, ${log#"$top"/})"
			grep '^gdb-check: transcript lacks' "$log" | head -3 | sed 's/^/      /'
		fi
	done
	echo "gdb-soak: $name passed $passed of $runs runs"
	[ "$passed" = "$runs" ] || bad=1
done
exit "$bad"
