#!/usr/bin/env bash
# Prepare a lab's kernel tree as a worktree of build/src:
#   vm/kernel/lab-tree.sh LAB DEST BRANCH start|solved [SUBMISSION.patch]
# start  = base + every earlier lab's patch and solution + lab LAB's patch (what students get)
# solved = start + solutions/labLAB/*.patch (what make check grades), then the reference
#          answer to the lab's optional challenge, solutions/labLAB/challenge/*.patch: its
#          hidden tests (labs/labLAB/challenge/) must pass there and fail on start. A later
#          lab's start tree has the solutions but never the challenge answer.
# With SUBMISSION, the student's patch is applied on the start tree instead.
# Exit status: 3 when a patch of the series (or the hand-in) does not apply; 2 when
# anything else failed (the source tree, git): the caller tells the two apart.
# The series order is: solutions/lab0, patches/0001, solutions/lab1, patches/0002, ...
#   vm/kernel/lab-tree.sh --list LAB start|solved [SUBMISSION.patch]
# prints that series, one patch file a line, and touches nothing (vm/kernel/kernel.sh keys
# its kernels by it).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

list_only=0
if [ "${1:-}" = --list ]; then
	list_only=1
	shift
	[ $# -ge 2 ] || die "usage: $0 --list LAB start|solved [SUBMISSION]"
	set -- "$1" - - "${@:2}"
fi
[ $# -ge 4 ] || die "usage: $0 LAB DEST BRANCH start|solved [SUBMISSION]"
lab=$1 dest=$2 branch=$3 variant=$4 submission=${5:-}
[ -d "$top/labs/lab$lab" ] || die "there is no lab $lab (labs/lab$lab)"
# A student edition has the solutions of the labs already due, and no others.
solved_k=$(edition_solved)
if [ -n "$solved_k" ] && [ "$lab" -gt "$solved_k" ]; then
	die "lab $lab's start tree is built on the solutions of labs $solved_k to $((lab - 1)), which this edition does not have yet (RELEASE: SOLVED=$solved_k): they come with the release after lab $solved_k is due"
fi
if [ -n "$solved_k" ] && [ "$variant" = solved ] && [ "$lab" -ge "$solved_k" ]; then
	die "lab $lab's reference solution is not in this edition (RELEASE: SOLVED=$solved_k): make grade LAB=$lab grades your own tree"
fi
case "$dest" in /*) ;; *) dest="$PWD/$dest" ;; esac # git -C below changes directory

# series LAB: the patch files of the start tree of lab LAB, in order.
series() {
	local n=$1 i p
	for ((i = 0; i <= n; i++)); do
		if [ "$i" -gt 0 ]; then
			for p in "$top"/patches/"$(printf '%04d' "$i")"-*.patch; do
				[ -e "$p" ] && echo "$p"
			done
		fi
		if [ "$i" -lt "$n" ]; then
			for p in "$top"/solutions/lab"$i"/*.patch; do
				[ -e "$p" ] && echo "$p"
			done
		fi
	done
	return 0
}

mapfile -t patches < <(series "$lab")
if [ "$variant" = solved ]; then
	for p in "$top"/solutions/lab"$lab"/*.patch "$top"/solutions/lab"$lab"/challenge/*.patch; do
		[ -e "$p" ] && patches+=("$p")
	done
elif [ "$variant" != start ]; then
	die "variant must be start or solved"
fi
if [ -n "$submission" ]; then
	[ -f "$submission" ] || die "no hand-in at $submission"
	patches+=("$(cd "$(dirname "$submission")" && pwd)/$(basename "$submission")")
fi
if [ "$list_only" = 1 ]; then
	[ "${#patches[@]}" -eq 0 ] || printf '%s\n' "${patches[@]}"
	exit 0
fi

"$top/vm/kernel/tree.sh"
src="$BUILD/src"

# The same series on a clean tree that already holds it: nothing to do. Re-applying
# would touch include/linux/sched.h and make the next build recompile half the kernel.
series_stamp() { # where the tree records which series it holds
	local path
	path=$(git -C "$dest" rev-parse --git-path lab-series) || return 1
	case "$path" in /*) echo "$path" ;; *) echo "$dest/$path" ;; esac
}
stamp=$(cat "${patches[@]}" /dev/null | sha1sum | cut -d' ' -f1)
stamp_file=
if [ -e "$dest/.git" ]; then stamp_file=$(series_stamp); fi
if [ -n "$stamp_file" ] && [ -f "$stamp_file" ] &&
	[ "$(cat "$stamp_file")" = "$stamp $(git -C "$dest" rev-parse HEAD)" ] &&
	[ -z "$(git -C "$dest" status --porcelain --untracked-files=no)" ]; then
	say "lab $lab ($variant${submission:+ + $(basename "$submission")}): $dest already at $(git -C "$dest" log --oneline -1)"
	exit 0
fi

if [ ! -e "$dest/.git" ]; then
	mkdir -p "$(dirname "$dest")"
	# One at a time: a prune beside another job's add could take its half-made worktree.
	(
		flock 9
		git -C "$src" worktree prune
		git -C "$src" worktree add -q -f -B "$branch" "$dest" base
	) 9>"$src.worktree.lock"
else
	# Reset in place: files no series touches keep their mtimes, so the
	# next build recompiles only what changed.
	git -C "$dest" am --abort >/dev/null 2>&1 || true
	old_head=$(git -C "$dest" rev-parse HEAD)
	# Remember when each file the old series touched was last written ...
	mtimes=$(mktemp)
	trap 'rm -f "$mtimes"' EXIT
	git -C "$dest" diff -z --name-only base "$old_head" |
		(cd "$dest" && xargs -0r stat -c '%Y %n' 2>/dev/null) >"$mtimes" || true
	git -C "$dest" checkout -q -B "$branch" base
	git -C "$dest" reset -q --hard base
fi
for p in "${patches[@]}"; do
	if ! git -C "$dest" am -q --3way "$p"; then
		warn "$(basename "$p") does not apply to lab $lab's tree ($dest)"
		exit 3
	fi
done
# ... and give that time back to those the new series leaves with the same content:
# re-applying patch 2 must not look like a change to include/linux/sched.h.
if [ -n "${mtimes:-}" ]; then
	while read -r mtime file; do
		if git -C "$dest" diff --quiet "$old_head" HEAD -- "$file" 2>/dev/null &&
			[ -z "$(git -C "$dest" status --porcelain -- "$file")" ]; then
			touch -m -d "@$mtime" "$dest/$file"
		fi
	done <"$mtimes"
fi
echo "$stamp $(git -C "$dest" rev-parse HEAD)" >"$(series_stamp)"
say "lab $lab ($variant${submission:+ + $(basename "$submission")}): $dest at $(git -C "$dest" log --oneline -1)"
