#!/usr/bin/env bash
# The guest of a GDB walkthrough: vm/boot/walkthrough-guest.sh LAB NAME DIR
# Builds gdbscripts/targets/NAME.c into DIR/prog and an initramfs that runs it as
# /run/prog (DIR/initramfs.cpio.gz); a lab whose tests use a disk (tests.conf "disk SIZE")
# gets a fresh ext4 image, DIR/disk.img. Prints qemu.sh's disk arguments (or nothing).
# make check (vm/grade/gdb-check.sh) and make walkthrough boot the same guest.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -eq 3 ] || die "usage: $0 LAB NAME DIR"
lab=$1 name=$2 dir=$3
mkdir -p "$dir"
gcc -m32 -static -O2 -Wall -pthread -I"$top/labs/include" -o "$dir/prog" "$top/gdbscripts/targets/$name.c"
"$top/vm/boot/initramfs.sh" "$dir/initramfs.cpio.gz" --run "$dir/prog" >/dev/null
disk_size=$("$top/vm/testsconf.py" "$top/labs/lab$lab" disk)
if [ -n "$disk_size" ]; then
	"$top/vm/boot/disk.sh" "$dir/disk.img" "$disk_size" >/dev/null
	echo "--disk $dir/disk.img"
fi
