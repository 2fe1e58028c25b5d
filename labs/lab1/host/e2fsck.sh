#!/usr/bin/env bash
# Lab 1 host check: the ext4 image the guest's tests used is consistent.
# `e2fsck -fn` forces a full check and changes nothing; any problem (a transaction left
# half-done, a bitmap out of step with the inodes) makes it exit non-zero.
# check-lab.sh runs it after the guest powered off, with DISK set to the image.
set -euo pipefail
# Exit 1: the file system is inconsistent; 2: it could not be checked.
if [ -z "${DISK:-}" ] || [ ! -f "$DISK" ]; then echo "no disk image (DISK=${DISK:-})"; exit 2; fi
command -v e2fsck >/dev/null || { echo "e2fsck missing: apt-get install e2fsprogs (or make deps)"; exit 2; }
rc=0
e2fsck -fn "$DISK" || rc=$?
case "$rc" in
0) exit 0 ;;
1 | 2 | 4) exit 1 ;; # errors found (with -n nothing is corrected)
*) exit 2 ;;         # e2fsck itself failed (8: operational error, 16: usage, ...)
esac
