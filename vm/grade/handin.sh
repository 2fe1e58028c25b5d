#!/usr/bin/env bash
# make handin LAB=n: your commits on lab n since its start, plus any uncommitted work
# (committed for you as "labN: hand-in"), as one git format-patch file, with your written
# work (labs/labN/answers.md and the like) in it as handin/FILE.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1
src="$BUILD/lab$lab/src"
[ -e "$src/.git" ] || die "no lab $lab tree: run 'make lab LAB=$lab' first"
# The lab's written work (tests.conf "deliverable": answers.md, Lab 5's report, Lab 6's
# reproducer): your copy of labs/labN/FILE goes in as handin/FILE, for people to read.
while read -r file; do
	[ -f "$top/labs/lab$lab/$file" ] || continue
	mkdir -p "$src/handin"
	cp "$top/labs/lab$lab/$file" "$src/handin/$file"
done < <("$top/vm/testsconf.py" "$top/labs/lab$lab" deliverable)
if [ -n "$(git -C "$src" status --porcelain)" ]; then
	git -C "$src" add -A
	git -C "$src" commit -q -m "lab$lab: hand-in"
fi
out="$top/handin-lab$lab.patch"
git -C "$src" format-patch --stdout "lab$lab-start..HEAD" >"$out"
[ -s "$out" ] || die "no changes since lab$lab-start: nothing to hand in"
say "wrote $out ($(grep -c '^From ' "$out") commit(s)); grade it with: make check LAB=$lab SUBMISSION=$out"
