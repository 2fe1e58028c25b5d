#!/usr/bin/env bash
# Lab 2 host check: CONFIG_FIBRILS cannot be chosen together with a feature that keeps
# per-task state tied to one kernel stack, which a fibril switch would hand to another
# call chain. Reads the "config FIBRILS" entry of init/Kconfig from the commit the kernel
# was built from (SOURCE_COMMIT): Kconfig enforces "depends on", so the entry is the proof.
set -euo pipefail
# Exit 1: an exclusion is missing; 2: nothing could be checked.
[ -n "${SOURCE_COMMIT:-}" ] || { echo "no SOURCE_COMMIT: cannot read init/Kconfig"; exit 2; }
kconfig=$(git -C "$SOURCE_GIT" show "$SOURCE_COMMIT:init/Kconfig") || { echo "cannot read init/Kconfig at $SOURCE_COMMIT"; exit 2; }
# The entry: from "config FIBRILS" to the next Kconfig keyword at the start of a line.
entry=$(awk '/^config FIBRILS$/ { on = 1; print; next } on && /^(config|menuconfig|menu|endmenu|if|endif|source|choice|comment) / { exit } on { print }' <<<"$kconfig")
[ -n "$entry" ] || { echo "init/Kconfig has no config FIBRILS"; exit 2; }
depends=$(grep -E '^[[:space:]]*depends on' <<<"$entry" || true)
echo "$depends"
# Every "depends on" line is ANDed; collect the symbols written as !SYMBOL.
excluded=$(grep -oE '![[:space:]]*[A-Z0-9_]+' <<<"$depends" | tr -d '! ' | sort -u || true)
missing=0
for symbol in FUNCTION_GRAPH_TRACER KRETPROBES GCC_PLUGIN_STACKLEAK KCOV VM86 MEMCG PSI HIGHMEM PREEMPT_RT; do
	if grep -qx "$symbol" <<<"$excluded"; then
		echo "FIBRILS depends on !$symbol"
	else
		echo "FIBRILS does not exclude $symbol: a switch would hand its per-task state to another chain"
		missing=1
	fi
done
# An "||" would let an excluded feature back in through the other side.
if grep -q '||' <<<"$depends"; then
	echo "a depends on line uses ||: the exclusions are not unconditional"
	missing=1
fi
exit "$missing"
