#!/usr/bin/env bash
# Lab 1 exercise check (structural): which members live in struct per_call_chain_storage?
# Asks GDB for the type in the kernel's debug info, as a kernel engineer would:
#   gdb -batch -ex 'ptype struct per_call_chain_storage' vmlinux
# check-lab.sh sets DEBUGINFO: vmlinux on the solved tree; on the start tree, kernel/fork.o
# alone (tests.conf "start-build"), whose debug info has the whole task_struct.
# Patch 1 moves journal_info and nameidata; the exercise moves plug, bio_list,
# reclaim_state and in_iowait as well.
set -euo pipefail
debuginfo=${DEBUGINFO:-}
# Exit 1: a member is missing (the exercise is not done); 2: nothing could be checked.
[ -f "$debuginfo" ] || { echo "no debug info at '$debuginfo'"; exit 2; }
command -v gdb >/dev/null || { echo "gdb missing: apt-get install gdb (or make deps)"; exit 2; }
out=$(gdb -nx -batch -ex 'ptype struct per_call_chain_storage' "$debuginfo" 2>&1)
echo "$out"
grep -q '^type = struct per_call_chain_storage {' <<<"$out" || { echo "no struct per_call_chain_storage in $debuginfo"; exit 2; }
missing=0
for member in journal_info nameidata plug bio_list reclaim_state in_iowait; do
	if grep -qE "[ *]$member(;|:)" <<<"$out"; then
		echo "per_call_chain_storage has $member"
	else
		echo "per_call_chain_storage lacks $member"
		missing=1
	fi
done

# Moving the declarations is half the exercise: an anonymous copy of the members keeps
# current->plug compiling, so the handout's callers must be converted to per_call_chain()
# too. The source is read from the commit the kernel was built from (SOURCE_COMMIT).
[ -n "${SOURCE_COMMIT:-}" ] || { echo "no SOURCE_COMMIT: cannot read the callers"; exit 2; }
for file in block/blk-core.c kernel/sched/core.c; do
	text=$(git -C "$SOURCE_GIT" show "$SOURCE_COMMIT:$file") || { echo "cannot read $file at $SOURCE_COMMIT"; exit 2; }
	left=$(grep -nE -- 'current->(plug|bio_list|reclaim_state|in_iowait)\b' <<<"$text" || true)
	if [ -n "$left" ]; then
		echo "$file still reaches these members through current-> (expected per_call_chain()):"
		awk '{ print "    " $0 }' <<<"$left"
		missing=1
	else
		echo "$file: every access to the moved members goes through per_call_chain()"
	fi
done
exit "$missing"
