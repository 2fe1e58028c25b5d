#!/usr/bin/env bash
# vm/grade/batch/leaderboard.sh LAB KERNEL OUT.tsv: a hand-in's figures for a leaderboard.
# Lab LAB's tests.conf "leaderboard PROGRAM NAME..." lines name a benchmark
# (labs/labLAB/bench/PROGRAM.c) and the RESULT lines of it that count; each runs in one
# guest of the hand-in's kernel (the folder KERNEL, vm/kernel/kernel.sh's) under
# -icount, confined, with vm/bench's own runner. Guest instructions do not depend on the
# machine or its load (three runs of one kernel were within 0.3%), so they rank
# students fairly; they are the graded (debug)
# kernel's, not make bench's figures, and they are never graded.
# Writes OUT.tsv, "name<TAB>value<TAB>asc" (lower is better) a row, when the lab has a
# leaderboard; nothing when it has none. Exit 1 when a benchmark failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:?usage: $0 LAB KERNEL OUT.tsv} kernel=${2:?} out=${3:?}
rm -f "$out"
mapfile -t boards < <("$top/vm/testsconf.py" "$top/labs/lab$lab" leaderboard)
[ "${#boards[@]}" -gt 0 ] || exit 0
work="$out.d"
rm -rf "$work"
mkdir -p "$work"
sources=()
for board in "${boards[@]}"; do sources+=("labs/lab$lab/bench/${board%%$'\t'*}.c"); done
"$top/vm/bench/bench-initramfs.sh" "$work/initramfs.cpio.gz" "$work/progs" "${sources[@]}" >&2
CONFINE=1 "$top/vm/bench/bench-run.sh" "$kernel/bzImage" "$work/initramfs.cpio.gz" "$work/figures" icount >&2
: >"$out.new"
for board in "${boards[@]}"; do
	for name in ${board#*$'\t'}; do
		value=$(awk -v n="$name" '$1 == n { print $2 }' "$work/figures")
		[ -z "$value" ] || printf '%s\t%s\tasc\n' "$name" "$value" >>"$out.new"
	done
done
mv "$out.new" "$out"
