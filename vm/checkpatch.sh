#!/usr/bin/env bash
# vm/checkpatch.sh: the kernel's checkpatch.pl on every patch of the series; errors fail.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"
"$top/vm/tree.sh"
bad=0
for p in "$top"/patches/*.patch "$top"/solutions/lab*/*.patch; do
	[ -e "$p" ] || continue
	if ! (cd "$BUILD/src" && perl scripts/checkpatch.pl --no-tree --terse -q "$p"); then
		errors=$(cd "$BUILD/src" && perl scripts/checkpatch.pl --no-tree --terse -q "$p" | grep -c ': ERROR:' || true)
		if [ "$errors" -gt 0 ]; then bad=1; fi
	fi
done
if [ "$bad" -ne 0 ]; then die "checkpatch found errors"; fi
say "checkpatch: no errors"
