#!/usr/bin/env bash
# vm/check/check-reproducers.sh LAB...: a lab whose exercise is to reproduce a defect
# (solutions/labN/reproducer.c, Lab 6) ships a reference reproducer, and it must tell the
# two kernels apart: exit 1 on the lab's start kernel (the defect), exit 0 on the solved
# one. A reproducer that passes both, or fails both, proves nothing, and neither would a
# student's that make grade-all runs the same way (vm/grade/batch/run-program.sh).
# Prints one line per check; exit 1 when one fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

failed=0
check() { report_check reproducer "$@"; }
for lab in "$@"; do
	src="$top/solutions/lab$lab/reproducer.c"
	[ -f "$src" ] || continue
	for variant in start solved; do
		want=1
		[ "$variant" = solved ] && want=0
		if ! kernel=$("$top/vm/kernel/kernel.sh" "$lab" "$variant"); then
			check "lab$lab-$variant" 0 "lab $lab's $variant kernel does not build"
			continue
		fi
		work="$BUILD/check/reproducer-lab$lab-$variant"
		rm -rf "$work"
		got=$("$top/vm/grade/batch/run-program.sh" "$kernel" "$src" "$work" || echo "runner-failed")
		# its last line of its own: not the kernel's, not /init's
		said=$({ grep -a -v -e '^\[' -e '^lab-' -e '^# ' "$work/guest.log" 2>/dev/null || true; } |
			tail -1 | cut -c1-120)
		check "lab$lab-$variant" "$([ "$got" = "exit $want" ] && echo 1 || echo 0)" \
			"want exit $want, got $got: ${said:-nothing printed}"
	done
done
exit "$failed"
