#!/usr/bin/env bash
# vm/bench/bench-initramfs.sh OUT.cpio.gz DIR SOURCE.c...: build the benchmark programs
# SOURCE.c... (paths in the repository: make bench's list, vm/bench/bench.sh, or a
# hand-in's leaderboard, vm/grade/batch/leaderboard.sh; gcc -m32 -static) into DIR and pack
# them with the guest into the initramfs OUT. The guest runs them in the order given
# (DIR/list, lab.mode=test), each printing a table line and a "RESULT name=value" line per
# figure.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -ge 3 ] || die "usage: $0 OUT.cpio.gz DIR SOURCE.c..."
out=$1 dir=$2
shift 2
require_cmd gcc build-essential
progs=("$@")
rm -rf "$dir"
mkdir -p "$dir"
for src in "${progs[@]}"; do
	name=$(basename "$src" .c)
	gcc -m32 -static -O2 -Wall -Werror -pthread -I"$top/labs/include" -o "$dir/$name" "$top/$src" ||
		die "$src does not compile (gcc -m32 -static; make deps installs gcc-multilib)"
	echo "$name" >>"$dir/list"
done
"$top/vm/boot/initramfs.sh" "$out" --tests "$dir"
