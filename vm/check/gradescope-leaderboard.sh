#!/usr/bin/env bash
# vm/check/gradescope-leaderboard.sh: make check's test of a Gradescope leaderboard. A
# Lab 5 hand-in gets one (vm/grade/batch/leaderboard.sh, here on Lab 5's reference
# kernel): both figures labs/lab5/tests.conf names, in guest instructions, lower first,
# in a results.json that Gradescope's schema accepts (vm/check/gradescope-verdicts.py).
# A check of its own, apart from vm/check/gradescope.sh, because it needs Lab 5's kernel:
# make check starts it once that kernel is built, the Lab 0 checks long before.
# Prints one line per check; exit 1 when one fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

work="$BUILD/check/gradescope-leaderboard"
rm -rf "$work"
mkdir -p "$work"
failed=0
check() { report_check gradescope "$@"; }
echo "== make gradescope LAB=5: a hand-in's leaderboard =="

echo '{"student": "lab5", "status": "graded", "total": 0, "max": 0}' >"$work/lab5-row.json"
if k5=$("$top/vm/kernel/kernel.sh" 5 solved 2>/dev/null) &&
	"$top/vm/grade/batch/leaderboard.sh" 5 "$k5" "$work/lab5-leaderboard.tsv" >"$work/leaderboard.out" 2>&1; then
	"$top/vm/grade/batch/gradescope-json.py" 5 "$work/lab5-row.json" /dev/null "$top" "$work/lab5-leaderboard.tsv" \
		>"$work/leaderboard.json" 2>>"$work/leaderboard.out" || true
fi
verdicts=$("$top/vm/check/gradescope-verdicts.py" "$top/vm/grade/batch/gradescope-results.schema.json" "$work" 0 \
	leaderboard) || verdicts=$'leaderboard\t0\tthe results could not be read'
while IFS=$'\t' read -r name ok why; do
	check "$name" "$ok" "$why"
done <<<"$verdicts"
[ "$failed" = 0 ] || echo "  (log: ${work#"$top"/}/leaderboard.out)"
exit "$failed"
