#!/usr/bin/env bash
# Lab 6 host check: the short form of `make stress` on the kernel check-lab.sh just built and
# graded ($KERNEL): stress-ng 8 s alone and 8 s beside the asys fuzzer, on -smp 2, in a guest
# of its own (vm/stress/stress.sh). Its guest log is results/lab6-stress.log.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
"$top/vm/stress/stress.sh" --kernel "$KERNEL/bzImage" --smp 2 --time "${STRESS_TIME:-8}" \
	--log "$top/results/lab6-stress.log"
