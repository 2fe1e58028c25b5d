#!/usr/bin/env bash
# vm/grade/panic-result.sh LOG VERDICT ERE: grade a panic test's boot (tests.conf "panic").
# A panic test is a guest program that must make the kernel panic: it prints
# "panic-test: armed" and then does what must panic. LOG is the boot's serial log,
# VERDICT qemu.sh's verdict ("status N", "hang", "died", "qemu-failed") and ERE the panic
# line the test's source names ("Expected panic: ERE" in its header comment).
# Prints one result, in the words of vm/grade/check-lab.sh's grade():
#   pass            the guest died, after "armed", with a line matching ERE, and the log
#                   before "armed" shows no kernel problem;
#   fail 1          the program ran to its end and said the kernel did not panic (its
#                   own check, exit 1), and the log shows no kernel problem;
#   crash WHY       anything else: it died another way, hung, died before it armed, or
#                   printed the panic text itself and went on;
#   none            QEMU did not run the guest.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)

log=$1 verdict=$2 ere=$3
[ -n "$ere" ] || { echo "crash the test names no expected panic"; exit 0; }
armed=$(grep -anm1 '^panic-test: armed$' "$log" | cut -d: -f1 || true)
before=$(mktemp)
trap 'rm -f "$before"' EXIT
if [ -n "$armed" ]; then head -n "$((armed - 1))" "$log" >"$before"; else cp "$log" "$before"; fi
clean_before=1
"$top/vm/logscan.sh" "$before" >/dev/null || clean_before=0

case "$verdict" in
died)
	if [ -z "$armed" ]; then echo "crash the guest died before the test armed"; exit 0; fi
	if [ "$clean_before" = 0 ]; then echo "crash a kernel problem before the test armed"; exit 0; fi
	if tail -n "+$armed" "$log" | grep -aqE -- "$ere"; then echo pass; else
		echo "crash the kernel died, but not with the expected panic"; fi ;;
"status 1")
	if "$top/vm/logscan.sh" "$log" >/dev/null; then echo "fail 1"; else
		echo "crash no panic, and a kernel problem in the log"; fi ;;
"status "*) echo "crash the program exited ${verdict#status } without a panic" ;;
hang) echo "crash the guest hung" ;;
*) echo none ;;
esac
