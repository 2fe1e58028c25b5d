#!/usr/bin/env bash
# Build a lab kernel: vm/kernel/build-kernel.sh SRC OBJ [EXTRA.config]
#   SRC    a kernel source tree (a worktree of build/src)
#   OBJ    its build folder (make O=OBJ); one per lab, so rebuilds touch only what changed.
#   EXTRA  optional: a config fragment merged after lab.config; where both set an option,
#          EXTRA wins (vm/kernel/config/bench.config: the non-debug benchmark kernel of make bench).
#          Give each EXTRA its own OBJ: switching fragments in one OBJ rebuilds everything.
# KERNEL_TARGETS (default "bzImage scripts_gdb") names what to build: vm/kernel/kernel.sh asks
# for one object alone where a check needs only its debug info.
# The config is i386 tinyconfig + vm/kernel/config/lab.config (+ EXTRA), merged with the kernel's
# own merge_config.sh and regenerated only when the fragment(s) change.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -eq 2 ] || [ $# -eq 3 ] || die "usage: $0 SRC OBJ [EXTRA.config]"
src=$(cd "$1" && pwd)
mkdir -p "$2"
obj=$(cd "$2" && pwd)
frag="$top/vm/kernel/config/lab.config"
extra=${3:-}
if [ -n "$extra" ]; then
	[ -f "$extra" ] || die "no config fragment $extra"
	# One fragment, lab.config then EXTRA; for the check below only the last line
	# that names an option counts (merge_config.sh lets the later one win, too).
	cat "$frag" "$extra" >"$obj/.lab-config.fragment"
	frag="$obj/.lab-config.fragment"
fi

require_cmd ccache ccache
require_cmd flex flex
require_cmd bison bison
require_cmd bc bc

# ccache: BASEDIR makes absolute paths under build/ relative, NOHASHDIR ignores the
# working directory, so a fresh clone (CI) or another lab's folder still hits the cache.
export CCACHE_BASEDIR="$BUILD" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-12G}
# Fixed build stamps: the same source gives the same objects, run after run.
export KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=fibrils KBUILD_BUILD_TIMESTAMP="2007-01-30"

kmake() { make -s -C "$src" O="$obj" ARCH=i386 CC="ccache gcc" -j"$(nproc)" "$@"; }

stamp="$obj/.lab-config-stamp"
if [ ! -f "$obj/.config" ] || [ ! -f "$stamp" ] || ! cmp -s "$frag" "$stamp"; then
	say "configuring $obj: tinyconfig + vm/kernel/config/lab.config${extra:+ + ${extra#"$top"/}}"
	kmake tinyconfig >"$obj/.lab-config.log" 2>&1 || { cat "$obj/.lab-config.log"; die "tinyconfig failed"; }
	# Quiet: merge_config warns for every choice the fragment overrides (PREEMPT, SLUB,
	# ...), which is the point; the check below reports what did not take.
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag") >/dev/null 2>&1
	kmake olddefconfig >>"$obj/.lab-config.log" 2>&1 || { cat "$obj/.lab-config.log"; die "olddefconfig failed"; }
	# last_setting_wins FRAGMENT: its option lines, keeping only the last line of each option.
	last_setting_wins() {
		sed -nE 's/^(CONFIG_[A-Za-z0-9_]+)=.*/\1 &/p; s/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1 &/p' "$1" |
			awk '{ key = $1; sub(/^[^ ]+ /, ""); last[key] = $0; order[NR] = key }
				END { for (i = 1; i <= NR; i++) if (!(order[i] in seen)) { seen[order[i]] = 1; print last[order[i]] } }'
	}
	known() { grep -rqsxE --include='Kconfig*' "[[:space:]]*(menu)?config ${1#CONFIG_}" "$src"; }
	# Every option the fragment asks for must survive Kconfig's dependency resolution.
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			# Options a later lab's patch adds (CONFIG_FIBRILS) are unknown to earlier trees.
			known "${line%%=*}" || continue
			grep -qx "$line" "$obj/.config" || { warn "config: asked for $line, got: $(grep "^${line%%=*}=" "$obj/.config" || echo unset)"; bad=1; } ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; ! grep -q "^$opt=" "$obj/.config" || { warn "config: $opt should be unset"; bad=1; } ;;
		esac
	done < <(if [ -n "$extra" ]; then last_setting_wins "$frag"; else cat "$frag"; fi)
	[ "$bad" -eq 0 ] || die "the config fragment does not apply cleanly (see above)"
	cp "$frag" "$stamp"
fi

targets=${KERNEL_TARGETS:-bzImage scripts_gdb}
say "building $obj ($targets)"
# shellcheck disable=SC2086 # one word a target
kmake $targets
if [ -z "${KERNEL_TARGETS:-}" ]; then ls -l "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" >/dev/null; fi
