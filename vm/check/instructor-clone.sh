#!/usr/bin/env bash
# vm/check/instructor-clone.sh DEST LAB: this repository as an instructor's own clone
# at DEST (a new folder), ready to grade lab LAB's hand-ins, at little cost:
#   - the working tree's files (tracked and new, not ignored) committed in a repository
#     of its own, so its grader is "clean" as make grade-all wants;
#   - DEST/build/src, a clone of build/src that borrows its objects (git clone --shared),
#     not a second extraction of Debian's tarball;
#   - lab LAB's start and solved kernels copied from this repository's kernel store: the
#     grader reads them (GDB constants, the copy check) and would otherwise build them;
#   - the guest's busybox .deb from build/debs, which make deps would download again.
# make check grades from such a clone where instructors met faults it never saw from its
# own folder (vm/check/grade-all.sh): under /tmp, in a folder of mode 0700.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -eq 2 ] || die "usage: $0 DEST LAB"
dest=$1 lab=$2
[ ! -e "$dest" ] || die "$dest exists: the clone goes in a new folder"
mkdir -p "$dest"

(cd "$top" && git ls-files -z --cached --others --exclude-standard | cpio -pdm0 --quiet "$dest")
git -C "$dest" init -q
git -C "$dest" add -A
git -C "$dest" -c user.name=instructor -c user.email=instructor@fibrils.invalid commit -q -m "the grader, as make check found it"

# No checkout but scripts/gdb: a hand-in's kernel gets the pristine lx- scripts from there
# (vm/kernel/kernel.sh); the lab trees are worktrees of their own.
git clone -q --shared --no-checkout "$BUILD/src" "$dest/build/src"
git -C "$dest/build/src" checkout -q HEAD -- scripts/gdb
git -C "$dest/build/src" config user.name "fibrils lab"
git -C "$dest/build/src" config user.email "lab@fibrils.invalid"
git -C "$dest/build/src" config gc.auto 0

# The guest's busybox .deb, as make deps downloads it (the same file: no mirror needed).
mkdir -p "$dest/build/debs"
cp "$BUILD"/debs/busybox-static_*_i386.deb "$dest/build/debs/"

mkdir -p "$dest/build/check/kernels"
for variant in start solved; do
	# the whole start kernel: a hand-in's GDB constants come from it
	kernel=$(KERNEL_OBJECT='' "$top/vm/kernel/kernel.sh" "$lab" "$variant")
	cp -a "$kernel" "$dest/build/check/kernels/"
done
