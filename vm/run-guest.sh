#!/usr/bin/env bash
# make run-guest PROG=path [LAB=n] [SMP=k]: boot lab n's solved kernel with one static
# i386 program, run it as root, print its output, and exit with its exit status.
# This is how instructors run private tests that students never see.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

prog=$1 lab=$2 smp=${3:-1}
[ -f "$prog" ] || die "PROG=$prog: no such file"
file -L "$prog" 2>/dev/null | grep -q 'ELF 32-bit.*statically linked' ||
	die "PROG=$prog is not a static i386 program (build it with gcc -m32 -static)"

kernel=$("$top/vm/kernel.sh" "$lab" solved)
work="$BUILD/guest"
mkdir -p "$work"
"$top/vm/initramfs.sh" "$work/run-guest.cpio.gz" --run "$prog"
mkdir -p "$top/results"
log="$top/results/run-guest.log"
set +e
"$top/vm/qemu.sh" --kernel "$kernel/bzImage" --initrd "$work/run-guest.cpio.gz" \
	--mode run --smp "$smp" --timeout "${GUEST_TIMEOUT:-600}" --log "$log" |
	sed -n '/Run \/init as init process/,$p' | grep -v 'Run /init as init process'
rc=${PIPESTATUS[0]}
set -e
if ! "$top/vm/logscan.sh" "$log" >/dev/null; then
	warn "the kernel reported a problem (see $log)"
	[ "$rc" != 0 ] || rc=1
fi
# make turns any failure into its own exit status 2: the program's status is
# printed here and is the exit status of vm/run-guest.sh itself.
echo "run-guest: $(basename "$prog") exited with status $rc"
echo "$rc" >"$top/results/run-guest.status"
exit "$rc"
