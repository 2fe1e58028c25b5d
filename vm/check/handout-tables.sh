#!/usr/bin/env bash
# vm/check/handout-tables.sh [RESULTS.tsv]: every lab's handout carries the grading table
# vm/check/grading-table.sh writes from its tests.conf, unchanged; and, given make
# check's results.tsv, each table's total is the maximum make check graded the lab's
# solved tree out of (an optional challenge's rows, challenge:NAME, are not in it). A
# handout whose points disagree with the grader fails the run.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

results=${1:-}
bad=0
for conf in "$top"/labs/lab[0-9]*/tests.conf; do
	dir=$(dirname "$conf")
	lab=${dir##*/lab}
	handout="$dir/README.md"
	# what every handout tells a student: the time to plan, how to rebuild and retest
	for must in '^\*Expected time: ' '^##* Rebuild and retest$'; do
		if ! grep -q -- "$must" "$handout"; then
			echo "lab $lab: ${handout#"$top"/} lacks a line matching $must"
			bad=1
		fi
	done
	# every exercise heading is followed by its difficulty and the time to plan
	if ! awk '/^##+ (Exercise:|[0-9]+\. )/ { h = $0; getline; getline; if ($0 !~ /^\*Difficulty: /) { print h; bad = 1 } } END { exit bad }' "$handout" >/dev/null; then
		echo "lab $lab: an exercise heading in ${handout#"$top"/} is not followed by its '*Difficulty: ...*' line"
		bad=1
	fi
	want=$("$top/vm/check/grading-table.sh" "$lab")
	have=$(sed -n '/^<!-- grading table:/,/^<!-- end grading table -->/p' "$handout" 2>/dev/null || true)
	if [ "$have" != "$want" ]; then
		echo "lab $lab: the grading table in ${handout#"$top"/} is not the one tests.conf gives"
		echo "  (vm/check/grading-table.sh $lab prints it; paste it between the markers)"
		diff <(echo "$have") <(echo "$want") | sed 's/^/    /' | head -20 || true
		bad=1
		continue
	fi
	total=$(sed -n 's/^| \*\*make check, solved tree\*\* | | \*\*\([0-9]*\)\*\* |$/\1/p' <<<"$want")
	if [ -n "$results" ] && [ -f "$results" ]; then
		graded=$(awk -F'\t' -v lab="$lab" '$1 == lab && $2 == "solved" && $4 !~ /^challenge:/ { m += $6; n++ } END { if (n) print m }' "$results")
		if [ -n "$graded" ] && [ "$graded" != "$total" ]; then
			echo "lab $lab: the handout's table adds up to $total, make check graded the solved tree out of $graded"
			bad=1
			continue
		fi
	fi
	echo "lab $lab: the handout's grading table matches tests.conf (solved tree: $total)"
done
exit "$bad"
