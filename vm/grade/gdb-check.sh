#!/usr/bin/env bash
# Run a GDB walkthrough in batch mode and check its transcript:
#   vm/grade/gdb-check.sh LAB NAME KERNEL WORK [--confine]
# Boots KERNEL (a vm/kernel/kernel.sh folder) paused (-S) with gdbscripts/targets/NAME.c as the
# guest program, runs gdbscripts/NAME.gdb in step mode fed with Enters, and requires a pause
# at every checkpoint and every pattern of gdbscripts/NAME.expect. Scratch files go to WORK.
# --confine: KERNEL is a hand-in's, and its QEMU runs confined (vm/boot/qemu.sh --confine),
# with the GDB stub on a unix socket in the guest's folder instead of a port.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1 name=$2 kernel=$3 work=$4 confine=${5:-}
mkdir -p "$work"
script="$top/gdbscripts/$name.gdb"
expect="$top/gdbscripts/$name.expect"
if [ ! -f "$script" ] || [ ! -f "$expect" ]; then die "missing $script or $expect"; fi

# The walkthrough's program as /run/prog, and a disk if the lab's tests use one. A
# confined QEMU's folder holds them and its GDB socket, whose path must fit a unix
# socket's 108 bytes: a short one under /tmp (the sandbox binds it back), not the run's.
guest="$work/gdb-$name"
if [ "$confine" = --confine ]; then guest=$(mktemp -d /tmp/walkthrough.XXXXXX); fi
read -r -a disk_args <<<"$("$top/vm/boot/walkthrough-guest.sh" "$lab" "$name" "$guest")"

# The stub: a free port of our own (never the GDBPORT a student's make qemu-gdb uses), so
# parallel runs and a live session do not collide; for a confined QEMU, a unix socket in
# the guest's folder, the one folder it may write.
transcript="$work/gdb-$name.transcript"
stub=(--gdb) socket=""
if [ "$confine" = --confine ]; then
	socket="$guest/gdb.sock"
	rm -f "$socket"
	stub=(--gdb-socket "$socket" --confine)
	export GDBSOCKET=$socket
else
	GDBPORT=$(free_port)
	export GDBPORT
fi
# QEMU in a process group of its own: the trap ends exactly it (and its timeout and
# tee), by that group's id, never by a pattern that could match someone else's QEMU.
setsid "$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" \
	--initrd "$guest/initramfs.cpio.gz" --mode run "${stub[@]}" --timeout 600 \
	--log "$work/gdb-$name.guest.log" "${disk_args[@]}" >/dev/null 2>&1 &
qemu_pid=$!
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	kill -- -"$qemu_pid" 2>/dev/null || true
	if [ -n "$socket" ]; then rm -rf "$guest"; fi
}
trap cleanup EXIT
# The stub is there once QEMU has made its socket: a confined QEMU starts in a sandbox,
# which takes seconds on a busy host (a minute is a hang, and GDB then says so).
for _ in $(seq 600); do
	if [ -z "$socket" ] || [ -S "$socket" ]; then break; fi
	sleep 0.1
done
[ -z "$socket" ] || [ -S "$socket" ] || echo "gdb-check: the confined QEMU never opened its GDB socket in 60 s"
sleep 1

# In step mode, as make walkthrough runs it live, with an Enter ready for every pause:
# the same script, and proof that each checkpoint is reached and paused at.
checkpoints=$(grep -c '^[[:space:]]*checkpoint [0-9]' "$script" || true)
for _ in $(seq "$checkpoints"); do echo; done >"$work/gdb-$name.enter"
timeout 300 "$top/vm/boot/gdb.sh" "$kernel" -batch -ex "set walkthrough-step on" \
	-x "$script" -ex "kill" <"$work/gdb-$name.enter" >"$transcript" 2>&1 || true
cat "$transcript"

missing=0
pauses=$(grep -o -- '--- end of checkpoint [^ ]*\. Enter' "$transcript" | wc -l)
if [ "$checkpoints" -eq 0 ] || [ "$pauses" -ne $((checkpoints - 1)) ] ||
	! grep -q -- '--- end of checkpoint .*: the walkthrough is over ---' "$transcript"; then
	echo "gdb-check: step mode paused $pauses times for $checkpoints checkpoints (expected $((checkpoints - 1)) and the end)"
	missing=1
fi
while IFS= read -r pattern; do
	case "$pattern" in "#"* | "") continue ;; esac
	if ! grep -qE -- "$pattern" "$transcript"; then
		echo "gdb-check: transcript lacks: $pattern"
		missing=1
	fi
done <"$expect"
exit "$missing"
