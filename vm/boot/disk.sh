#!/usr/bin/env bash
# vm/boot/disk.sh IMG SIZE: a fresh ext4 image (journalled, as mkfs.ext4 makes it) that
# vm/boot/qemu.sh --disk attaches as /dev/vda. Overwrites IMG.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"
[ $# -eq 2 ] || die "usage: $0 IMG SIZE"
require_cmd mkfs.ext4 e2fsprogs
mkdir -p "$(dirname "$1")"
rm -f "$1"
truncate -s "$2" "$1"
mkfs.ext4 -q -F "$1"
say "ext4 image $1 ($2): make qemu DISK=$1, then mount /dev/vda /mnt in the guest"
