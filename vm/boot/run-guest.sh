#!/usr/bin/env bash
# make run-guest PROG=path [LAB=n] [SMP=k] [MINE=1]: boot lab n's solved kernel (with
# MINE=1, the student's own build/labN kernel, as make lab built it) with one static i386
# program, run it as root, print its output, and exit with its exit status.
# This is how instructors run private tests that students never see, and how a student
# runs a reproducer on both kernels.
#   vm/boot/run-guest.sh PROG LAB [SMP] [BZIMAGE]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

prog=$1 lab=$2 smp=${3:-1} own_image=${4:-}
[ -f "$prog" ] || die "PROG=$prog: no such file"
file -L "$prog" 2>/dev/null | grep -q 'ELF 32-bit.*statically linked' ||
	die "PROG=$prog is not a static i386 program (build it with gcc -m32 -static)"

if [ -n "$own_image" ]; then
	[ -f "$own_image" ] || die "MINE=1: no kernel at $own_image (run make lab LAB=$lab first)"
	image=$own_image
else
	image="$("$top/vm/kernel/kernel.sh" "$lab" solved)/bzImage"
fi
work="$BUILD/guest"
mkdir -p "$work"
"$top/vm/boot/initramfs.sh" "$work/run-guest.cpio.gz" --run "$prog"
mkdir -p "$top/results"
log="$top/results/run-guest.log"
verdict="$work/run-guest.verdict"
rm -f "$verdict"
set +e
"$top/vm/boot/qemu.sh" --kernel "$image" --initrd "$work/run-guest.cpio.gz" \
	--mode run --smp "$smp" --timeout "${GUEST_TIMEOUT:-600}" --log "$log" --verdict "$verdict" |
	sed -n '/Run \/init as init process/,$p' | grep -v -e 'Run /init as init process' -e '^lab-end nonce='
rc=${PIPESTATUS[0]}
set -e
# make turns any failure into its own exit status 2: what happened is printed here, and
# the program's status is the exit status of vm/boot/run-guest.sh itself. When the program
# never reported one (QEMU failed, the guest hung or died), that is said, never read as
# a status, and the exit status is 125 or more.
what=$(cat "$verdict" 2>/dev/null || echo qemu-failed)
case "$what" in
"status "*) msg="$(basename "$prog") exited with status $rc" ;;
hang) msg="$(basename "$prog") did not finish: the guest hung (status $rc)" ;;
died) msg="$(basename "$prog") did not report a status: the guest died (status $rc)" ;;
*) msg="QEMU failed: $(basename "$prog") never ran (status $rc)"; [ "$rc" -ge 125 ] || rc=126 ;;
esac
if ! "$top/vm/logscan.sh" "$log" >/dev/null; then
	warn "the kernel reported a problem (see $log)"
	[ "$rc" != 0 ] || rc=1
	msg="$msg; the kernel reported a problem"
fi
echo "run-guest: $msg"
echo "$rc" >"$top/results/run-guest.status"
exit "$rc"
