#!/usr/bin/env bash
# vm/boot/lab-initramfs.sh LAB OUT [TESTS_DIR]: build lab LAB's tests (the test, exercise
# and panic lines of labs/labLAB/tests.conf, gcc -m32 -static) into TESTS_DIR and pack them
# with the guest into the initramfs OUT. make check runs the test and exercise ones from
# /tests/list (a panic test gets a boot of its own); in the shell of make qemu, run one by
# hand: /tests/NAME.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1 out=$2 tests=${3:-$BUILD/lab$1/tests}
labs=${LABS_DIR:-$top/labs} # vm/grade/selftest.sh's cheat labs live elsewhere
rm -rf "$tests"
mkdir -p "$tests"
awk '$1 == "test" || $1 == "exercise" { print $2 }' "$labs/lab$lab/tests.conf" >"$tests/list"
awk '$1 == "panic" { print $2 }' "$labs/lab$lab/tests.conf" >"$tests/panic-list"
while read -r name; do
	gcc -m32 -static -O2 -Wall -Werror -pthread -I"$top/labs/include" \
		-o "$tests/$name" "$labs/lab$lab/tests/$name.c" ||
		die "test $name does not compile (gcc -m32 -static; make deps installs gcc-multilib)"
done < <(cat "$tests/list" "$tests/panic-list")
"$top/vm/boot/initramfs.sh" "$out" --tests "$tests"
