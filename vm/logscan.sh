#!/usr/bin/env bash
# vm/logscan.sh LOG: exit 1 and print the lines when a guest log shows a kernel problem.
# Test output (lines starting "# ", "ok", "not ok") is not scanned: only the kernel's.
set -euo pipefail
log=$1
pattern='BUG:|WARNING:|Oops|list_add corruption|list_del corruption|blocked for more than|Kernel panic|corrupted stack end|Stack corruption|general protection fault|Unable to handle|INFO: |kernel stack overflow|unreferenced object|suspected memory leak'
if grep -avE '^(# |ok |not ok )' "$log" | grep -aE "$pattern"; then
	exit 1
fi
exit 0
