#!/usr/bin/env bash
# vm/logscan.sh LOG: exit 1 and print the lines when a guest log shows a kernel problem.
# Test output (lines starting "# ", "ok", "not ok") is not scanned, except for kernel
# messages the serial console glued onto such a line: a "[  12.345678] " timestamp
# followed by a problem is a kernel problem wherever it sits.
set -euo pipefail
log=$1
pattern='BUG:|WARNING:|Oops|list_add corruption|list_del corruption|blocked for more than|Kernel panic|corrupted stack end|Stack corruption|general protection fault|Unable to handle|INFO: |kernel stack overflow|unreferenced object|suspected memory leak|kernel BUG at|invalid opcode: |---\[ end trace'
found=0
grep -avE '^(# |ok |not ok )' "$log" | grep -aE "$pattern" && found=1
grep -aE '^(# |ok |not ok )' "$log" | grep -aE "\[ *[0-9]+\.[0-9]{6}\] .*($pattern)" && found=1
exit "$found"
