#!/usr/bin/env bash
# The kernel of one lab variant, built at most once:
#   vm/kernel/kernel.sh LAB start|solved [SUBMISSION.patch]
# prints the folder that holds it, build/check/kernels/KEY: bzImage, vmlinux and the
# kernel's lx- GDB scripts (vmlinux-gdb.py, scripts/gdb/linux/), all QEMU and GDB need.
#
# KEY is a hash of everything that goes into the kernel: each patch of the series in
# order, the config fragment, the build script and the Debian source version. The same
# KEY again builds nothing, so a warm `make check` rebuilds no kernel, and identical
# trees are built once (lab 5's start tree is lab 4's solved tree).
#
# Builds run in one folder, build/check/tree/{src,obj}: every lab's start and solved
# trees switch that one tree in place (vm/kernel/lab-tree.sh gives unchanged files their
# old mtimes back), so a switch recompiles only what differs (make check goes through
# the labs in series order: each switch is a small step forward), and one tree of
# 1.8 GB serves every lab instead of one per lab. A lock keeps two builds out of it.
#
# A start tree whose lab says "start-build OBJECT" in its tests.conf (and KERNEL_OBJECT=
# OBJECT in general) is built as that one object alone, with its debug info, and the
# folder holds it as debug.o: a check that only reads types needs no whole kernel.
# KERNEL_OBJECT= (set, empty) asks for the whole kernel all the same.
#   vm/kernel/kernel.sh --path LAB start|solved [SUBMISSION.patch]
# prints the folder that kernel is (or would be) stored in, and builds nothing: this
# script owns the store's layout, and a caller that must remove a kernel (make mutants,
# one hand-in kernel a mutant) asks it where.
# Exit status: 0, the folder printed; 3, the series (with a hand-in: the hand-in) does not
# apply; 4, it does not build; 5, the grader failed before the hand-in's own code ran
# (its tree could not be prepared, the sandbox could not be set up): never the hand-in's.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

path_only=0
if [ "${1:-}" = --path ]; then
	path_only=1
	shift
fi
[ $# -ge 2 ] || die "usage: $0 [--path] LAB start|solved [SUBMISSION.patch]"
lab=$1 variant=$2 submission=${3:-}
object=${KERNEL_OBJECT:-}
if [ -z "${KERNEL_OBJECT+set}" ] && [ "$variant" = start ] && [ -z "$submission" ]; then
	object=$("$top/vm/testsconf.py" "$top/labs/lab$lab" start-build)
fi
require_pkg linux-source-6.1

mapfile -t series < <("$top/vm/kernel/lab-tree.sh" --list "$lab" "$variant" ${submission:+"$submission"})
key=$({
	for p in "${series[@]}"; do sha1sum <"$p"; done
	sha1sum <"$top/vm/kernel/config/lab.config"
	sha1sum <"$top/vm/kernel/build-kernel.sh"
	dpkg-query -W -f='${Version}\n' linux-source-6.1
	echo "object=$object"
} | sha1sum | cut -c1-16)
store="$BUILD/check/kernels/$key"
if [ "$path_only" = 1 ]; then
	echo "$store"
	exit 0
fi
if [ -f "$store/complete" ]; then
	echo "$store"
	exit 0
fi

work="$BUILD/check/tree" branch="check-tree"
# A hand-in builds apart from the reference trees, in a sandbox (below).
# HANDIN_SLOT (make grade-all): one folder per parallel job, reused hand-in after hand-in.
if [ -n "$submission" ]; then
	work="$BUILD/check/handin-lab$lab${HANDIN_SLOT:+-slot$HANDIN_SLOT}"
	branch="check-handin-lab$lab${HANDIN_SLOT:+-slot$HANDIN_SLOT}"
fi
mkdir -p "$work"
exec 9>"$work.lock"
flock 9
# Another run may have built it while this one waited for the lock.
if [ -f "$store/complete" ]; then
	echo "$store"
	exit 0
fi

rc=0
"$top/vm/kernel/lab-tree.sh" "$lab" "$work/src" "$branch" "$variant" ${submission:+"$submission"} >&2 || rc=$?
case "$rc:${submission:+handin}" in
0:*) ;;
3:*) exit 3 ;;
*:handin) warn "the grader could not prepare lab $lab's tree for the hand-in (vm/kernel/lab-tree.sh exit $rc)"; exit 5 ;;
*) exit 3 ;;
esac
t0=$(date +%s)
if [ -z "$submission" ]; then
	KERNEL_TARGETS=$object "$top/vm/kernel/build-kernel.sh" "$work/src" "$work/obj" >&2 || exit 4
else
	# A hand-in's Makefiles and Kconfig run commands: build it in vm/sandbox.sh, where
	# it can write its own build folder and nothing else. Applying the patch above ran
	# nothing of it: git am only edits files.
	mkdir -p "$work/obj"
	rc=0
	"$top/vm/sandbox.sh" --ro "$top" --ro "$BUILD/src" --ro "$work/src" "$work/obj" -- \
		"$top/vm/kernel/build-kernel.sh" "$work/src" "$work/obj" >&2 || rc=$?
	case "$rc" in
	0) ;;
	125) exit 5 ;; # the sandbox, not the build (vm/sandbox.sh)
	*) exit 4 ;;
	esac
fi
timing build "$(($(date +%s) - t0))" "lab $lab $variant${submission:+ + $(basename "$submission")}${object:+ ($object only)}"

# Publish (vm/kernel/kernel-folder.sh, the layout's one writer): the folder is filled
# beside the store and renamed into place, so a half-copied kernel is never used.
kind=reference reference=
[ -z "$object" ] || kind="object:$object"
if [ -n "$submission" ]; then
	# GDB constants for a hand-in: the lab's start kernel's (a student edition has no
	# reference solution of the lab it grades, and has the start tree).
	kind=handin
	reference=$(KERNEL_OBJECT='' "$top/vm/kernel/kernel.sh" "$lab" start) || { warn "no start kernel of lab $lab for the GDB constants"; exit 5; }
fi
"$top/vm/kernel/kernel-folder.sh" "$kind" "$work/obj" "$work/src" "$(git -C "$work/src" rev-parse HEAD)" "$store.new" ${reference:+"$reference"}
tmp="$store.new"
printf '%s\n' "${series[@]##*/}" >"$tmp/series"
echo "lab $lab $variant${submission:+ + $(basename "$submission")}${object:+ ($object only)}" >"$tmp/built-as"
touch "$tmp/complete"
rm -rf "$store"
mv "$tmp" "$store"
echo "$store"
