#!/usr/bin/env bash
# make check [LAB=n] [SUBMISSION=file.patch]: grade every lab (or one).
# For each lab: the solved tree must pass every test; then, when the lab has exercises,
# its start tree must fail every exercise test (a test that cannot fail is a defect).
# Results: results/results.tsv (lab variant smp test PASS|FAIL points) and the guest logs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

lab=${1:-} submission=${2:-}
if [ -n "$lab" ]; then
	labs=("$lab")
else
	# A lab takes part once it has a tests.conf (a folder alone is work in progress).
	mapfile -t labs < <(find "$top/labs" -mindepth 2 -maxdepth 2 -path '*/lab[0-9]*/tests.conf' -printf '%h\n' |
		sed 's|.*/lab||' | sort -n)
fi
rm -f "$top/results/results.tsv"
mkdir -p "$top/results"

t0=$(date +%s)
failed=()
for n in "${labs[@]}"; do
	if [ -n "$submission" ]; then
		"$top/vm/check-lab.sh" "$n" start "$submission" || failed+=("lab $n submission")
		continue
	fi
	"$top/vm/check-lab.sh" "$n" solved || failed+=("lab $n solved")
	if grep -qE '^(exercise|host .* exercise)' "$top/labs/lab$n/tests.conf"; then
		"$top/vm/check-lab.sh" "$n" start || failed+=("lab $n start (exercise tests must fail)")
	fi
done

# Every patch of the series and every solution: kernel style, no checkpatch errors.
if [ -z "$submission" ]; then
	"$top/vm/checkpatch.sh" >"$top/results/checkpatch.txt" 2>&1 || failed+=("checkpatch (results/checkpatch.txt)")
	echo "checkpatch: $(grep -c ': WARNING:' "$top/results/checkpatch.txt") warning(s), errors fail the run (results/checkpatch.txt)"
fi

# The grader's own must-fail check, on the first lab's kernel (already built above).
"$top/vm/selftest.sh" "$BUILD/check/lab${labs[0]}/obj/arch/x86/boot/bzImage" || failed+=("harness self-test")

awk -F'\t' '{ max += $6; if ($5 == "PASS") got += $6; if ($5 == "PASS") p++; else f++ }
	END { printf "\nTotal score: %d/%d\n%d passed, %d failed\n", got, max, p, f }' "$top/results/results.tsv"
echo "(make check took $(($(date +%s) - t0)) s; results in results/results.tsv)"
if [ "${#failed[@]}" -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
