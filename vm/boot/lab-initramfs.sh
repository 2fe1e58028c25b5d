#!/usr/bin/env bash
# vm/boot/lab-initramfs.sh LAB OUT [TESTS_DIR]: build lab LAB's tests (the test, exercise
# and panic lines of labs/labLAB/tests.conf, and the hidden challenge tests of
# labs/labLAB/challenge/challenge.conf where the folder exists, gcc -m32 -static) into
# TESTS_DIR and pack them
# with the guest into the initramfs OUT. make check runs the test and exercise ones from
# /tests/list (a panic test gets a boot of its own); in the shell of make qemu, run one by
# hand: /tests/NAME.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1 out=$2 tests=${3:-$BUILD/lab$1/tests}
labs=${LABS_DIR:-$top/labs} # vm/check/selftest.sh's cheat labs live elsewhere
rm -rf "$tests"
mkdir -p "$tests"
"$top/vm/testsconf.py" "$labs/lab$lab" >"$tests/records" || die "lab $lab's tests.conf cannot be trusted (above)"
awk -F'\t' '$1 == "test" || $1 == "exercise" { print $2 }' "$tests/records" >"$tests/list"
awk -F'\t' '$1 == "panic" { print $2 }' "$tests/records" >"$tests/panic-list"
awk -F'\t' '$1 == "challenge" { print $2 }' "$tests/records" >"$tests/challenge-list"
rm "$tests/records"
challenge="$labs/lab$lab/challenge"
# compile NAME SOURCE
compile() {
	gcc -m32 -static -O2 -Wall -Werror -pthread -I"$top/labs/include" -o "$tests/$1" "$2" ||
		die "test $1 does not compile (gcc -m32 -static; make deps installs gcc-multilib)"
}
while read -r name; do compile "$name" "$labs/lab$lab/tests/$name.c"; done < <(cat "$tests/list" "$tests/panic-list")
while read -r name; do compile "$name" "$challenge/$name.c"; done <"$tests/challenge-list"
cat "$tests/challenge-list" >>"$tests/list"
"$top/vm/boot/initramfs.sh" "$out" --tests "$tests"
