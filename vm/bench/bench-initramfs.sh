#!/usr/bin/env bash
# vm/bench/bench-initramfs.sh OUT.cpio.gz DIR [SOURCE.c...]: build the Lab 5 benchmarks (labs/lab5/bench/*.c
# and Lab 2's switch_cost.c; gcc -m32 -static) into DIR and pack them with the guest into
# the initramfs OUT. The guest runs them in the order of DIR/list (lab.mode=test), each
# printing a table line and a "RESULT name=value" line per figure. SOURCE.c... (paths
# in the repository): those programs only (a hand-in's leaderboard, vm/grade/batch/leaderboard.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -ge 2 ] || die "usage: $0 OUT.cpio.gz DIR [SOURCE.c...]"
out=$1 dir=$2
shift 2
require_cmd gcc build-essential

# The order is the handout's: the clock check, then the four ways, then the switches.
progs=(labs/lab5/bench/icount_check.c labs/lab5/bench/direct.c labs/lab5/bench/asys_inline.c
	labs/lab5/bench/asys_roundtrip.c labs/lab5/bench/thread_per_call.c
	labs/lab5/bench/worker_thread.c labs/lab5/bench/iouring.c labs/lab2/bench/switch_cost.c
	labs/lab7/bench/cachemiss.c)
[ $# -eq 0 ] || progs=("$@")
rm -rf "$dir"
mkdir -p "$dir"
for src in "${progs[@]}"; do
	name=$(basename "$src" .c)
	gcc -m32 -static -O2 -Wall -Werror -pthread -I"$top/labs/include" -o "$dir/$name" "$top/$src" ||
		die "$src does not compile (gcc -m32 -static; make deps installs gcc-multilib)"
	echo "$name" >>"$dir/list"
done
"$top/vm/boot/initramfs.sh" "$out" --tests "$dir"
