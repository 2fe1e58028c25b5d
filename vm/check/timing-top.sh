#!/usr/bin/env bash
# vm/check/timing-top.sh TIMING.tsv [N]: the N (default 10) longest steps of a make check
# run, and the N longest tests inside its guests: where to look first to make it faster.
# Reads results/timing.tsv (header: category seconds step); category "phase" rows are the
# run's two halves, "test" rows the guests' own account of each test (part of a boot).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 TIMING.tsv [N]" >&2; exit 2; }
file=$1 top_n=${2:-10}
[ "$(head -1 "$file")" = "$(printf 'category\tseconds\tstep')" ] || { echo "$file: not a timing file (no header)" >&2; exit 2; }

echo "the run's phases:"
awk -F'\t' 'NR > 1 && $1 == "phase" { printf "  %6d s  %s\n", $2, $3 }' "$file"
echo "the $top_n longest steps (builds overlap guests):"
awk -F'\t' 'NR > 1 && $1 != "test" && $1 != "phase" { printf "%s\t%s\t%s\n", $2, $1, $3 }' "$file" |
	sort -t$'\t' -k1,1nr | awk -F'\t' -v n="$top_n" 'NR <= n { printf "  %6d s  %-5s  %s\n", $1, $2, $3 }'
echo "the $top_n longest parts of guests (the guest's own clock):"
awk -F'\t' 'NR > 1 && $1 == "test" { printf "%s\t%s\n", $2, $3 }' "$file" |
	sort -t$'\t' -k1,1gr | awk -F'\t' -v n="$top_n" 'NR <= n { printf "  %6.1f s  %s\n", $1, $2 }'
