#!/usr/bin/env bash
# vm/lab-initramfs.sh LAB OUT: an initramfs with lab LAB's tests in /tests (run them by
# hand in the guest shell: /tests/NAME), for make qemu and make qemu-gdb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

lab=$1 out=$2
tests="$BUILD/lab$lab/tests"
rm -rf "$tests"
mkdir -p "$tests"
awk '$1 == "test" || $1 == "exercise" { print $2 }' "$top/labs/lab$lab/tests.conf" >"$tests/list"
while read -r name; do
	gcc -m32 -static -O2 -Wall -pthread -I"$top/labs/include" -o "$tests/$name" \
		"$top/labs/lab$lab/tests/$name.c"
done <"$tests/list"
"$top/vm/initramfs.sh" "$out" --tests "$tests"
