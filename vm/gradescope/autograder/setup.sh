#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: everything a
# hand-in's grading needs is made here, so that grading one is an incremental build and
# its boots. (make check runs it in a throw-away root: vm/check/gradescope.sh.)
#   1. the Debian packages, through the project's own vm/deps.sh;
#   2. the kernel tree extracted (Debian's linux-source-6.1) and the lab's start kernel
#      built, whole: a hand-in's GDB walkthroughs take their constants from it;
#   3. the folder hand-ins build in (vm/kernel/kernel.sh HANDIN_SLOT=1) filled by one
#      build of the start tree as a hand-in that changes no kernel file, so that a
#      hand-in recompiles only the files it changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo="$here/fibrils"
lab=$(cat "$here/LAB")

"$repo/vm/deps.sh"
KERNEL_OBJECT='' "$repo/vm/kernel/kernel.sh" "$lab" start >/dev/null
HANDIN_SLOT=1 "$repo/vm/kernel/kernel.sh" "$lab" start "$here/primer.patch" >/dev/null
echo "setup: lab $lab's start kernel is built, and the hand-in build folder is ready"
