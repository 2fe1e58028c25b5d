#!/usr/bin/env bash
# make bench: Lab 5's benchmarks (labs/lab5/README.md) and Lab 7's cachemiss pair on the
# fully solved kernel. Builds the solved Lab 7 tree (every patch and every solution,
# vm/kernel/lab-tree.sh 7 ... solved; asys in its fibril mode unless a benchmark switches
# it to cachemiss mode) with vm/kernel/config/bench.config (no lockdep, kmemleak, list debugging) in
# build/bench/obj, boots it with -icount shift=0 and runs the benchmarks of
# labs/lab5/bench/ (figures in guest instructions), boots it again without -icount
# (TCG wall time, indicative), and prints the table, the targets and the RESULT lines;
# docs/lab5.md and docs/images/lab5-bench.png are rewritten with them.
# Environment:
#   ACCEL=kvm        where KVM works: no -icount there, figures are KVM wall-clock ns
#   BENCH_WALL=0     skip the wall-clock boot
#   BENCH_KERNEL=bzImage  benchmark this kernel instead of building the solved tree
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

t0=$(date +%s)
work="$BUILD/bench"
mkdir -p "$work"
if [ -n "${BENCH_KERNEL:-}" ]; then
	kernel=$BENCH_KERNEL
	desc="$kernel"
else
	compgen -G "$top/patches/0007-*.patch" >/dev/null ||
		die "Lab 7's patch (patches/0007-*.patch) is not in yet: there is no cachemiss mode to measure"
	"$top/vm/kernel/lab-tree.sh" 7 "$work/src" bench-lab7 solved
	"$top/vm/kernel/build-kernel.sh" "$work/src" "$work/obj" "$top/vm/kernel/config/bench.config"
	kernel="$work/obj/arch/x86/boot/bzImage"
	desc="the solved Lab 7 tree, build/bench/src at $(git -C "$work/src" log -1 --format=%h), with vm/kernel/config/bench.config"
fi
"$top/vm/bench/bench-initramfs.sh" "$work/initramfs.cpio.gz" "$work/progs"

if [ "${ACCEL:-tcg}" = tcg ]; then
	"$top/vm/bench/bench-run.sh" "$kernel" "$work/initramfs.cpio.gz" "$work/icount.txt" icount
	figures="$work/icount.txt" unit="guest instructions" wall=-
	if [ "${BENCH_WALL:-1}" != 0 ]; then
		"$top/vm/bench/bench-run.sh" "$kernel" "$work/initramfs.cpio.gz" "$work/wall.txt" wall
		wall="$work/wall.txt"
	fi
else
	warn "ACCEL=${ACCEL}: no -icount, so the figures are wall-clock ns, not instruction counts"
	"$top/vm/bench/bench-run.sh" "$kernel" "$work/initramfs.cpio.gz" "$work/wall.txt" wall
	figures="$work/wall.txt" unit="ns (${ACCEL})" wall=-
fi

UNIT=$unit BENCH_KERNEL_DESC=$desc "$top/vm/bench/bench-report.sh" "$figures" "$wall" \
	"$top/docs/lab5.md" "$top/docs/images/lab5-bench.png"
say "make bench took $(($(date +%s) - t0)) s"
