#!/usr/bin/env bash
# vm/bench/bench-run.sh KERNEL INITRD OUT icount|wall: boot the benchmark guest once (-smp 1)
# and write its figures to OUT, one "name value" line each; the guest log is OUT.log.
#   icount  QEMU's -icount shift=0,sleep=off: the guest clock counts guest instructions
#           (1 ns = 1 instruction), and an idle guest jumps to its next timer at once
#           instead of waiting in host time, so every figure is deterministic.
#   wall    no -icount: the clock is the host's, figures are TCG (or KVM) wall time:
#           indicative only, they move with the host's load.
# Fails when a benchmark fails, or the kernel logs a problem (vm/logscan.sh).
# CONFINE=1: the kernel is a hand-in's (a leaderboard, vm/grade/batch/leaderboard.sh):
# QEMU runs confined (vm/boot/qemu.sh --confine).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -eq 4 ] || die "usage: $0 KERNEL INITRD OUT icount|wall"
kernel=$1 initrd=$2 out=$3 clock=$4
case "$clock" in
icount) extra="-icount shift=0,sleep=off" ;;
wall) extra="" ;;
*) die "the clock is icount or wall, not $clock" ;;
esac

log="$out.log"
confine=()
[ "${CONFINE:-0}" != 1 ] || confine=(--confine)
t0=$(date +%s)
set +e
QEMU_EXTRA="${QEMU_EXTRA:-} $extra" APPEND="lab.timeout=900 ${APPEND:-}" \
	"$top/vm/boot/qemu.sh" --kernel "$kernel" --initrd "$initrd" --mode test --smp 1 \
	--timeout "${BENCH_TIMEOUT:-1800}" --log "$log" "${confine[@]}" >/dev/null
rc=$?
set -e
say "benchmarks ($clock clock): the guest ran $(($(date +%s) - t0)) s, log ${log#"$top"/}"
[ "$rc" = 0 ] || die "the benchmark guest failed (status $rc): see $log"
if grep -q '^not ok' "$log"; then
	grep -B3 '^not ok' "$log" | sed 's/^/    /' >&2
	die "a benchmark failed: see $log"
fi
"$top/vm/logscan.sh" "$log" >&2 || die "the kernel reported a problem during the benchmarks: see $log"
sed -n 's/^# RESULT \([a-z_0-9]*\)=\([0-9.-]*\)$/\1 \2/p' "$log" >"$out"
[ -s "$out" ] || die "no RESULT line in $log"
