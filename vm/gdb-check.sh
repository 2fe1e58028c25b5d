#!/usr/bin/env bash
# Run a GDB walkthrough in batch mode and check its transcript:
#   vm/gdb-check.sh LAB NAME WORK
# Boots WORK's kernel paused (-S) with gdbscripts/targets/NAME.c as the guest program,
# runs gdbscripts/NAME.gdb, and requires every pattern of gdbscripts/NAME.expect.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

lab=$1 name=$2 work=$3
script="$top/gdbscripts/$name.gdb"
expect="$top/gdbscripts/$name.expect"
if [ ! -f "$script" ] || [ ! -f "$expect" ]; then die "missing $script or $expect"; fi

prog="$work/gdb-$name.prog"
gcc -m32 -static -O2 -Wall -pthread -I"$top/labs/include" -o "$prog" "$top/gdbscripts/targets/$name.c"
"$top/vm/initramfs.sh" "$work/gdb-$name.cpio.gz" --run "$prog"

# A lab whose tests use a disk (tests.conf "disk SIZE") gets a fresh ext4 one here too.
disk_args=()
disk_size=$(awk '$1 == "disk" { print $2 }' "$top/labs/lab$lab/tests.conf")
if [ -n "$disk_size" ]; then
	"$top/vm/disk.sh" "$work/gdb-$name.img" "$disk_size" >/dev/null
	disk_args=(--disk "$work/gdb-$name.img")
fi

# A port of our own, so parallel runs and a student's live session do not collide.
port=${GDBPORT:-$((20000 + $$ % 20000))}
transcript="$work/gdb-$name.transcript"
GDBPORT=$port "$top/vm/qemu.sh" --kernel "$work/obj/arch/x86/boot/bzImage" \
	--initrd "$work/gdb-$name.cpio.gz" --mode run --gdb --timeout 600 \
	--log "$work/gdb-$name.guest.log" "${disk_args[@]}" >/dev/null 2>&1 &
qemu_pid=$!
trap 'kill $qemu_pid 2>/dev/null || true; pkill -f "tcp::$port" 2>/dev/null || true' EXIT
sleep 1

GDBPORT=$port timeout 300 "$top/vm/gdb.sh" "$work/obj" -batch -x "$script" -ex "kill" >"$transcript" 2>&1 || true
cat "$transcript"

missing=0
while IFS= read -r pattern; do
	case "$pattern" in "#"* | "") continue ;; esac
	if ! grep -qE -- "$pattern" "$transcript"; then
		echo "gdb-check: transcript lacks: $pattern"
		missing=1
	fi
done <"$expect"
exit "$missing"
