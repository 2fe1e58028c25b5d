#!/usr/bin/env bash
# make release OUT=dir SOLVED=k: the student edition, a git repository at OUT.
#   - everything the labs need, from this repository's last commit (git archive HEAD:
#     what is not committed is not released);
#   - solutions/labN only for N < k: the labs already due (lab k's start tree is built
#     from them);
#   - no solution text for labs >= k: every Markdown section between
#     "<!-- solution: lab N -->" and "<!-- end solution -->" with N >= k is replaced by a
#     line that says it comes later;
#   - no optional challenge's hidden tests or reference answer, whatever k is
#     (labs/labN/challenge/, solutions/labN/challenge/): they stay the instructor's, and
#     a challenge graded by tests the class has read grades nothing;
#   - no hand-written wrong answers (labs/labN/wrong/, make mutants): each is a whole
#     reference solution with one mistake in it;
#   - RELEASE: which labs are solved in it, and the instructor commit it came from.
# OUT that is already a student edition gets a new commit: students pull it, and their
# lab trees (build/labN, ignored by git) stay as they are. After the next deadline,
# SOLVED=k+1 brings lab k's solution back.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

out=${1:?usage: make release OUT=dir SOLVED=k} k=${2:?usage: make release OUT=dir SOLVED=k}
[[ "$k" =~ ^[0-9]+$ ]] || die "SOLVED=$k: the number of the first lab whose solution stays out (0: none is in)"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
case "$out/" in "$BUILD/"*) ;; "$top/"*) die "OUT=$out is inside this repository: give a folder outside it (or under build/)" ;; esac
if [ -e "$out" ] && [ ! -f "$out/RELEASE" ] && [ -n "$(ls -A "$out")" ]; then
	die "OUT=$out exists and is not a student edition (no RELEASE file): nothing written"
fi
if [ -n "$(git -C "$top" status --porcelain)" ]; then
	warn "this repository has uncommitted changes: the release is made from its last commit, $(git -C "$top" log -1 --format='%h %s')"
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
git -C "$top" archive HEAD | tar -x -C "$stage"
for dir in "$stage"/solutions/lab*; do
	[ -d "$dir" ] || continue
	n=${dir##*/lab}
	[ "$n" -lt "$k" ] || rm -rf "$dir"
done
rm -rf "$stage"/labs/lab*/challenge "$stage"/solutions/lab*/challenge "$stage"/labs/lab*/wrong
# The solution sections of labs >= k, out of every Markdown file.
find "$stage" -name '*.md' -print0 | xargs -0 python3 "$top/vm/release/strip-solutions.py" "$k"
commit=$(git -C "$top" rev-parse --short HEAD)
if [ "$k" = 0 ]; then solved_text="no reference solution is in"; else
	solved_text="the reference solutions of labs 0 to $((k - 1)) are in (solutions/)"; fi
cat >"$stage/RELEASE" <<TXT
Student edition of the fibrils teaching lab.
SOLVED=$k: $solved_text, none of lab $k or later.
Made by make release from instructor commit $commit.
TXT

mkdir -p "$out"
if [ ! -d "$out/.git" ]; then
	git -C "$out" init -q
	git -C "$out" checkout -q -b main
fi
# Replace what is tracked; leave what is ignored (build/, results/) alone.
git -C "$out" ls-files -z | (cd "$out" && xargs -0 -r rm -f)
(cd "$stage" && tar -c .) | tar -x -C "$out"
git -C "$out" add -A
if git -C "$out" diff --cached --quiet; then
	say "$out is already this edition (SOLVED=$k, $commit): no new commit"
else
	git -C "$out" -c user.name="fibrils lab" -c user.email="lab@fibrils.invalid" \
		commit -q -m "Student edition, SOLVED=$k (instructor commit $commit)"
	say "wrote $out: $(git -C "$out" log -1 --format='%h %s')"
fi
