#!/usr/bin/env bash
# vm/checkpatch.sh: the kernel's checkpatch.pl on every patch of the series; errors fail.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"
"$top/vm/tree.sh"
bad=0
for p in "$top"/patches/*.patch "$top"/solutions/lab*/*.patch; do
	[ -e "$p" ] || continue
	out=$(cd "$BUILD/src" && perl scripts/checkpatch.pl --no-tree --terse -q "$p") || true
	[ -z "$out" ] || printf '%s\n' "$out"
	if grep -q ': ERROR:' <<<"$out"; then bad=1; fi
done
if [ "$bad" -ne 0 ]; then die "checkpatch found errors"; fi
say "checkpatch: no errors"
