#!/bin/sh
# stress_alone: Debian's stress-ng, every stressor of stress-lib.sh at once for stress.time s.
# shellcheck source=labs/lab6/stress/stress-lib.sh
. /tests/stress-lib.sh
sleep 1
base=$(kstack)
run_stress
rc=$?
echo "stress-ng exit status $rc"
kstack_back "$base" || rc=1
labtest_summary "$rc"
exit "$rc"
