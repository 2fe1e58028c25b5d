#!/usr/bin/env bash
# make demo: the main job. Builds the fully solved Lab 4 kernel (patches 1-4 and every
# exercise solution), boots it under QEMU (TCG, -smp 2) and runs labs/lab4/demo.c in
# the guest: asynchronous system calls on fibrils, as a timeline. Submissions return
# at once, completions arrive with their cookies, and the sleeps overlap. In a student
# edition without Lab 4's solution, Lab 0's demo (below).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

prog="$BUILD/demo/demo"
mkdir -p "$BUILD/demo"
# A student edition without Lab 4's solution (make release SOLVED=k, k <= 4) runs the
# last demo it can: Lab 0's, on Lab 0's solved kernel, or its start kernel when even
# Lab 0's solution is not in yet.
solved_k=$(edition_solved)
if [ -n "$solved_k" ] && [ "$solved_k" -le 4 ]; then
	variant=solved
	[ "$solved_k" -ge 1 ] || variant=start
	gcc -m32 -static -O2 -Wall -I"$top/labs/include" -o "$prog" "$top/labs/lab0/demo.c"
	say "this edition has no Lab 4 solution yet (RELEASE: SOLVED=$solved_k): Lab 0's demo, on Lab 0's $variant kernel"
	kernel=$(KERNEL_OBJECT='' "$top/vm/kernel/kernel.sh" 0 "$variant")
	"$top/vm/boot/run-guest.sh" "$prog" 0 1 "$kernel/bzImage"
	exit
fi
gcc -m32 -static -O2 -Wall -I"$top/labs/include" -o "$prog" "$top/labs/lab4/demo.c"
say "booting the fully solved Lab 4 kernel in QEMU (TCG) to run the demo"
"$top/vm/boot/run-guest.sh" "$prog" 4 2
