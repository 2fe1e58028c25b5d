#!/usr/bin/env bash
# vm/stress/fuzz-kernel.sh [LAB]: the fully solved kernel that make fuzz and make stress boot;
# prints its bzImage. It is lab LAB's solved tree (default 4, the lab that adds asys),
# from vm/kernel/kernel.sh: the same kernel make check and make run-guest use, built once.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

echo "$("$top/vm/kernel/kernel.sh" "${1:-4}" solved)/bzImage"
