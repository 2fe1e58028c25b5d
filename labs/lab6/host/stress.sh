#!/usr/bin/env bash
# Lab 6 host check: the short form of `make stress` on the kernel check-lab.sh just built and
# graded ($KERNEL): stress-ng 8 s alone and 8 s beside the asys fuzzer, on -smp 2, in a guest
# of its own (vm/stress/stress.sh). It writes only where check-lab.sh says: its files in
# HOST_DIR, its guest log at HOST_LOG (results/lab6-VARIANT-host-stress-smp2.guest-log).
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
"$top/vm/stress/stress.sh" --kernel "$KERNEL/bzImage" --smp 2 --time "${STRESS_TIME:-8}" \
	--log "$HOST_LOG" --work "$HOST_DIR"
