#!/usr/bin/env bash
# A GDB walkthrough, live, for a lecture: vm/boot/walkthrough.sh LAB [NAME]
#   NAME    the walkthrough, gdbscripts/NAME.gdb (default: the lab's first, tests.conf)
# Environment:
#   KERNEL=solved  the lab's solved kernel, as make check builds it (default; in a student
#                  edition without the lab's solution, own is)
#   KERNEL=own     your own build of the lab, build/labN/obj (make lab LAB=N)
#   STEP=0         run the script without pausing (it still stops at its breakpoints)
#   BYHAND=1       open GDB without the script, to type the handout's steps yourself
#   DETACH=1       leave the tmux session detached and print its name (to drive it)
#
# Boots the kernel paused (-S) with the walkthrough's own program, gdbscripts/targets/
# NAME.c, as the guest's /run/prog, and opens tmux: the guest's console on the left,
# GDB on the right running gdbscripts/NAME.gdb in step mode, the same script make check
# runs: after each numbered checkpoint it waits for Enter (q stops the script and GDB is
# yours). When the program has run, the guest gives a shell where /run/prog runs it
# again. Leaving GDB ends the session, and with it QEMU.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"
require_cmd tmux tmux

[ $# -ge 1 ] || die "usage: $0 LAB [NAME]"
lab=$1
conf="$top/labs/lab$lab/tests.conf"
[ -f "$conf" ] || die "no lab $lab (labs/lab$lab/tests.conf)"
name=${2:-$("$top/vm/testsconf.py" "$top/labs/lab$lab" gdb | awk -F'\t' 'NR == 1 { print $1 }')}
[ -n "$name" ] || die "lab $lab has no GDB walkthrough (no gdb line in $conf)"
script="$top/gdbscripts/$name.gdb"
target="$top/gdbscripts/targets/$name.c"
if [ ! -f "$script" ] || [ ! -f "$target" ]; then die "no walkthrough $name ($script, $target)"; fi

# A student edition without this lab's solution walks through the student's own kernel.
default_kernel=solved
solved_k=$(edition_solved)
if [ -n "$solved_k" ] && [ "$lab" -ge "$solved_k" ]; then
	default_kernel=own
	[ -n "${KERNEL:-}" ] || say "this edition has no lab $lab solution yet (RELEASE: SOLVED=$solved_k): your own kernel, build/lab$lab (KERNEL=own)"
fi
case "${KERNEL:-$default_kernel}" in
solved)
	# kernel.sh prints the folder of the built kernel last
	kernel=$("$top/vm/kernel/kernel.sh" "$lab" solved | tail -1) ;;
own)
	kernel="$BUILD/lab$lab/obj"
	[ -f "$kernel/vmlinux" ] || die "no $kernel/vmlinux: make lab LAB=$lab first" ;;
*) die "KERNEL must be solved or own, not '$KERNEL'" ;;
esac
[ -f "$kernel/vmlinux" ] || die "no kernel in $kernel"
bzimage="$kernel/bzImage"
[ -f "$bzimage" ] || bzimage="$kernel/arch/x86/boot/bzImage"

work="$BUILD/walkthrough/$name"
disk_arg=$("$top/vm/boot/walkthrough-guest.sh" "$lab" "$name" "$work")

# A free port, so that a walkthrough and make check's own never meet.
port=$(free_port)
session="walkthrough-$name-$port"
step=on
[ "${STEP:-1}" = 0 ] && step=off

qemu_cmd="GDBPORT=$port $top/vm/boot/qemu.sh --kernel $bzimage --initrd $work/initramfs.cpio.gz --mode walkthrough --gdb $disk_arg"
gdb_cmd="GDBPORT=$port $top/vm/boot/gdb.sh $kernel -ex 'set walkthrough-step $step' -x $script"
if [ "${BYHAND:-0}" = 1 ]; then
	gdb_cmd="GDBPORT=$port $top/vm/boot/gdb.sh $kernel"
fi
# Leaving GDB ends the session: tmux hangs up on QEMU's pane, and QEMU ends.
tmux new-session -d -s "$session" -x 200 -y 50 "$qemu_cmd"
sleep 1
tmux split-window -h -t "$session" "$gdb_cmd; tmux kill-session -t $session"
tmux select-pane -t "$session:0.1"

say "walkthrough $name (lab $lab, $kernel): tmux session $session"
if [ "${DETACH:-0}" = 1 ]; then
	echo "$session"
elif [ -n "${TMUX:-}" ]; then
	tmux switch-client -t "$session"
else
	tmux attach-session -t "$session"
fi
