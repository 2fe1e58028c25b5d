#!/usr/bin/env bash
# make check's peer suite: the kernel's own selftests, which nobody here wrote.
#   vm/check/kselftests.sh
# Builds a subset of 6.1's tools/testing/selftests, static for i386, from the extracted
# Debian tree (vm/kselftest/build.sh), and runs it in guests of the stock kernel (Lab 0's
# start tree) and of the fibril kernels: Lab 4 solved, Lab 7 solved in both asys modes
# (the mode's kernel arguments from labs/lab7/tests.conf). A selftest that passes on
# stock and fails, hangs or splats on a fibril kernel fails the check; one that does not
# pass on stock is listed, not counted (vm/kselftest/compare.py).
# Out: results/kselftest-KERNEL.log and .tsv (each boot), results/kselftest.tsv (the
# comparison), and the line "kselftest: N passed on both, M differ".
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

selftests="$BUILD/kselftest/out"
mkdir -p "$BUILD/kselftest"
"$top/vm/kselftest/build.sh" "$BUILD/src" "$selftests" >"$BUILD/kselftest/build.log" 2>&1 ||
	die "the selftests did not build (see $BUILD/kselftest/build.log)"
echo "kselftest: $(($(wc -l <"$selftests/list") - 1)) selftests built (vm/kselftest/build.sh)"

cachemiss=$("$top/vm/testsconf.py" "$top/labs/lab7" | awk -F'\t' '$1 == "mode" && $2 == "cachemiss" { print $3 }')
[ -n "$cachemiss" ] || die "labs/lab7/tests.conf has no cachemiss mode line"
# KERNEL LAB VARIANT [KERNEL_ARGS]: the stock kernel first, the one the others answer to
boots=("stock 0 start" "lab4 4 solved" "lab7 7 solved" "lab7-cachemiss 7 solved $cachemiss")

results="$top/results"
mkdir -p "$results"
# boot_one "KERNEL LAB VARIANT [ARGS]": one kernel's run, its records in results/
boot_one() {
	local name lab variant args kernel
	read -r name lab variant args <<<"$1"
	kernel=$("$top/vm/kernel/kernel.sh" "$lab" "$variant") || die "lab $lab's $variant kernel did not build"
	# make check runs this beside the labs: its guests count against the run's cap too
	with_guest_slot "$top/vm/kselftest/boot.sh" "$selftests" "$kernel/bzImage" "$results/kselftest-$name" "$args"
}
# Two guests at a time: each is one guest of two CPUs, idle while a selftest sleeps.
rc=0
for boot in "${boots[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || rc=1; done
	boot_one "$boot" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || rc=1; done

others=()
for boot in "${boots[@]:1}"; do
	read -r name _ <<<"$boot"
	others+=("$name=$results/kselftest-$name.tsv")
done
"$top/vm/kselftest/compare.py" "$results/kselftest.tsv" "$results/kselftest-stock.tsv" "${others[@]}" || rc=1
exit "$rc"
