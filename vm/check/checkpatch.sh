#!/usr/bin/env bash
# vm/check/checkpatch.sh: the kernel's checkpatch.pl on every patch of the series; errors fail.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"
"$top/vm/kernel/tree.sh"
bad=0
# A canary first: a patch with a known error (no space after a comma). If checkpatch
# crashes or stops finding errors (a missing perl module, a changed output format), its silence on our patches
# would mean nothing.
canary=$(mktemp)
trap 'rm -f "$canary"' EXIT
printf '%s\n' 'From: Lab <lab@fibrils.invalid>' 'Subject: [PATCH] canary' '' 'Signed-off-by: Lab <lab@fibrils.invalid>' '---' \
	'diff --git a/kernel/canary.c b/kernel/canary.c' '--- a/kernel/canary.c' '+++ b/kernel/canary.c' '@@ -1,1 +1,2 @@' \
	' int a;' '+int f(int x,int y);' >"$canary"
out=$(cd "$BUILD/src" && perl scripts/checkpatch.pl --no-tree --terse -q "$canary") || true
if ! grep -q ': ERROR:' <<<"$out"; then
	die "checkpatch's canary (no space after a comma) found no error: checkpatch is not working"
fi
for p in "$top"/patches/*.patch "$top"/solutions/lab*/*.patch "$top"/solutions/lab*/challenge/*.patch; do
	[ -e "$p" ] || continue
	# Exit 1 is "found something"; anything else is checkpatch itself failing.
	rc=0
	out=$(cd "$BUILD/src" && perl scripts/checkpatch.pl --no-tree --terse -q "$p") || rc=$?
	[ "$rc" -le 1 ] || die "checkpatch failed (exit $rc) on $(basename "$p")"
	[ -z "$out" ] || printf '%s\n' "$out"
	if grep -q ': ERROR:' <<<"$out"; then bad=1; fi
done
if [ "$bad" -ne 0 ]; then die "checkpatch found errors"; fi
say "checkpatch: no errors"
