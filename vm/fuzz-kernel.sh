#!/usr/bin/env bash
# vm/fuzz-kernel.sh [LAB]: build the fully solved kernel that make fuzz and make stress boot,
# and print its bzImage. It is lab LAB's solved tree (default 4, the lab that adds asys) in
# build/check/labLAB, exactly as vm/run-guest.sh builds it: the same tree, branch and
# build folder, so make run-guest, make fuzz and make stress share one kernel build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

lab=${1:-4}
work="$BUILD/check/lab$lab"
"$top/vm/lab-tree.sh" "$lab" "$work/src" "check-lab$lab" solved >&2
"$top/vm/build-kernel.sh" "$work/src" "$work/obj" >&2
echo "$work/obj/arch/x86/boot/bzImage"
