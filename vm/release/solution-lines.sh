#!/usr/bin/env bash
# vm/release/solution-lines.sh K: the lines a student edition with SOLVED=K must not
# contain, one a line: every line that solutions/labN/*.patch (N >= K) adds, and every
# line an optional challenge's answer or hidden test adds (solutions/labN/challenge/,
# labs/labN/challenge/*.c, any N: never released), trimmed, of 20 characters or more, that
# is neither in the kernel source the labs start from (build/src at tag base) nor in
# patches/ or labs/include/: those a reader may see anyway.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

k=${1:?usage: $0 K}
[[ "$k" =~ ^[0-9]+$ ]] || die "SOLVED=$k: a lab number"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

{
	for dir in "$top"/solutions/lab*; do
		n=${dir##*/lab}
		[ "$n" -ge "$k" ] || continue
		cat "$dir"/*.patch
	done
	cat /dev/null "$top"/solutions/lab*/challenge/*.patch 2>/dev/null
	# a hidden test's lines, as if a patch added them (the instructor notes beside them
	# are prose whose phrases a handout's hints may share)
	cat /dev/null "$top"/labs/lab*/challenge/*.c 2>/dev/null | sed 's/^/+/'
} | sed -n 's/^+\([^+]\)/\1/p' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' |
	awk 'length($0) >= 20' | sort -u >"$scratch/added"
[ -s "$scratch/added" ] || exit 0

# Lines the start trees show anyway: the patches' own lines, and the kernel's. A hunk
# header names the function around the hunk ("@@ -321,8 +342,8 @@ void f(void)"), and a
# patch that applies on solved trees (patches/0007 on Lab 6's) names earlier solutions'
# functions there, as its context lines show their code: public as well.
{
	sed -n 's/^[+ -]//p' "$top"/patches/*.patch
	sed -n 's/^@@ [^@]* @@ //p' "$top"/patches/*.patch
	cat "$top"/labs/include/* "$top"/labs/lab*/tests/*.c # shared by the hidden tests
} | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | sort -u >"$scratch/public"
# An added line found inside a public one (a test's continuation line) is public too.
# grep -o -F -f reports one match a place, the longest: "for (...)" is not reported
# inside a public "for (...) {" when the added lines hold "for (...) {" too. So look
# again for the lines not found yet until a round finds none.
cp "$scratch/added" "$scratch/todo"
: >"$scratch/inside"
while grep -o -F -f "$scratch/todo" "$scratch/public" | sort -u >"$scratch/found" && [ -s "$scratch/found" ]; do
	cat "$scratch/found" >>"$scratch/inside"
	comm -23 "$scratch/todo" "$scratch/found" >"$scratch/todo.next"
	mv "$scratch/todo.next" "$scratch/todo"
	[ -s "$scratch/todo" ] || break
done
sort -u -o "$scratch/public" "$scratch/public" "$scratch/inside"
if git -C "$BUILD/src" rev-parse -q --verify base >/dev/null; then
	# Only where the solutions write: a grep of the whole tree takes a minute.
	mapfile -t where < <(sed -n 's#^+++ b/\([^/]*\)/.*#\1#p' "$top"/solutions/lab*/*.patch "$top"/solutions/lab*/challenge/*.patch 2>/dev/null | sort -u)
	git -C "$BUILD/src" grep -h -o -F -f "$scratch/added" base -- "${where[@]}" 2>/dev/null | sort -u >>"$scratch/public" || true
	sort -u -o "$scratch/public" "$scratch/public"
fi
comm -23 "$scratch/added" "$scratch/public"
