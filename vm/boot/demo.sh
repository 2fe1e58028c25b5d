#!/usr/bin/env bash
# make demo: the main job. Builds the fully solved Lab 4 kernel (patches 1-4 and every
# exercise solution), boots it under QEMU (TCG, -smp 2) and runs labs/lab4/demo.c in
# the guest: asynchronous system calls on fibrils, as a timeline. Submissions return
# at once, completions arrive with their cookies, and the sleeps overlap.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

prog="$BUILD/demo/demo"
mkdir -p "$BUILD/demo"
gcc -m32 -static -O2 -Wall -I"$top/labs/include" -o "$prog" "$top/labs/lab4/demo.c"
say "booting the fully solved Lab 4 kernel in QEMU (TCG) to run the demo"
"$top/vm/boot/run-guest.sh" "$prog" 4 2
