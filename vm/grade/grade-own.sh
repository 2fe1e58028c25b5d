#!/usr/bin/env bash
# make grade LAB=n: grade your own lab n tree, build/labN/src, committed or not, with the
# tests, points and kernel-health rules of make check (vm/grade/check-lab.sh).
#   1. builds the tree incrementally in its own build folder, build/labN/obj (a few
#      changed files: under a minute; include/linux/sched.h: 4.5 to 10 minutes);
#   2. grades that kernel: every test must pass, as for a hand-in, and the GDB
#      walkthroughs run;
#   3. warns about files your hand-in may not change (tests.conf handin-paths): make
#      check SUBMISSION= would refuse it.
# Results: results/grade/results.tsv and the guest logs beside it; the score is the
# "Score:" line, and after it the hints you took (make hint; for you, never graded).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:?usage: $0 LAB}
[ -f "$top/labs/lab$lab/tests.conf" ] || die "LAB=$lab: there is no labs/lab$lab/tests.conf"
src="$BUILD/lab$lab/src" obj="$BUILD/lab$lab/obj"
[ -e "$src/.git" ] || die "no lab $lab tree: run 'make lab LAB=$lab' first"

# What the hand-in would be: every change since the lab's start, committed or not.
changed=$( {
	git -C "$src" diff --name-only "lab$lab-start"
	git -C "$src" ls-files --others --exclude-standard
} | sort -u)
allowed=$("$top/vm/testsconf.py" "$top/labs/lab$lab" handin-paths)
outside=()
while IFS= read -r file; do
	[ -n "$file" ] || continue
	handin_path_allowed "$allowed" "$file" || outside+=("$file")
done <<<"$changed"
if [ "${#outside[@]}" -gt 0 ]; then
	warn "your tree changes ${outside[*]}: a hand-in may change only ${allowed:-nothing} (and never build files, scripts/ or kernel/fibril_selftest.c); make check SUBMISSION= would refuse it"
fi

t0=$(date +%s)
"$top/vm/kernel/build-kernel.sh" "$src" "$obj"
say "built in $(($(date +%s) - t0)) s"

# The grader reads a kernel folder (vm/kernel/kernel-folder.sh, the layout's one writer):
# make grade's is links into the build folder, with the commit its host checks read the
# source from: a commit of the working tree as it is (vm/lib.sh worktree_tree), so your
# branch, index and stash stay as they were.
tree=$(worktree_tree "$src")
commit=$(git -C "$src" commit-tree "$tree" -p HEAD -m "make grade: lab $lab as built")
"$top/vm/kernel/kernel-folder.sh" own "$obj" "$src" "$commit" "$BUILD/lab$lab/kernel"

results="$top/results/grade"
mkdir -p "$results"
rm -f "$results/results.tsv"
rc=0
KERNEL_DIR="$BUILD/lab$lab/kernel" RESULTS_DIR=$results "$top/vm/grade/check-lab.sh" "$lab" own || rc=$?
"$top/vm/grade/hint.sh" --taken "$lab"
exit "$rc"
