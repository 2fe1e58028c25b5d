#!/bin/sh
# stress_fuzz: the same stress-ng run while asys_fuzz runs for as long (fuzz.* options of the
# kernel command line apply; the fuzzer's own leak check is off, this script checks
# KernelStack once both are done).
# shellcheck source=labs/lab6/stress/stress-lib.sh
. /tests/stress-lib.sh
sleep 1
base=$(kstack)
/tests/asys_fuzz ITER=100000000 TIME="$STRESS_TIME" LEAKCHECK=0 >/tmp/fuzz.out 2>&1 &
fuzz=$!
run_stress
rc=$?
echo "stress-ng exit status $rc"
wait "$fuzz"
frc=$?
cat /tmp/fuzz.out
echo "asys_fuzz exit status $frc"
[ "$frc" = 0 ] || rc=1
kstack_back "$base" || rc=1
labtest_summary "$rc"
exit "$rc"
