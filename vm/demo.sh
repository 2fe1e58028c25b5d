#!/usr/bin/env bash
# make demo: the main job. Builds Lab 0's kernel (until the asys lab lands), boots it
# under QEMU and runs labs/lab0/demo.c in the guest: a first look at a task's kernel stack.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

prog="$BUILD/demo/demo"
mkdir -p "$BUILD/demo"
gcc -m32 -static -O2 -Wall -I"$top/labs/include" -o "$prog" "$top/labs/lab0/demo.c"
say "booting lab 0's kernel in QEMU (TCG) to run the demo"
"$top/vm/run-guest.sh" "$prog" 0 2
