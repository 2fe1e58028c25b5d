#!/usr/bin/env bash
# vm/grade/batch/run-program.sh KERNEL_DIR PROG.c WORK: build a student's program (Lab 6's
# reproducer) as the lab's tests are built, run it alone in a guest of KERNEL_DIR (a
# vm/kernel/kernel.sh folder), and print what became of it, one word and a number:
#   exit N            it ran and exited with N (the guest's own status, nonce-checked)
#   does-not-build    gcc -m32 -static refused it (WORK/build.log says why)
#   hang | died | qemu-failed   the guest hung, died (a panic) or never ran
# The guest's log is WORK/guest.log. QEMU runs confined (vm/boot/qemu.sh --confine): the program and
# the kernel are a hand-in's.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/vm/lib.sh"

kernel=$1 src=$2 work=$3
mkdir -p "$work"
if ! gcc -m32 -static -O2 -Wall -pthread -I"$top/labs/include" -o "$work/prog" "$src" >"$work/build.log" 2>&1; then
	echo does-not-build
	exit 0
fi
"$top/vm/boot/initramfs.sh" "$work/prog.cpio.gz" --run "$work/prog" 2>/dev/null
"$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" --initrd "$work/prog.cpio.gz" --mode run --smp 2 \
	--timeout "${RUN_TIMEOUT:-120}" --log "$work/guest.log" --verdict "$work/verdict" --confine >/dev/null 2>"$work/qemu.err" || true
verdict=$(cat "$work/verdict" 2>/dev/null || echo qemu-failed)
case "$verdict" in
"status "*) echo "exit ${verdict#status }" ;;
*) echo "$verdict" ;;
esac
