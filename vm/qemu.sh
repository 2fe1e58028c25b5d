#!/usr/bin/env bash
# Boot a lab kernel in QEMU (i386, TCG by default).
#   vm/qemu.sh --kernel BZIMAGE --initrd CPIO [--mode shell|test|run] [--smp N]
#              [--disk IMG] [--gdb] [--timeout SECONDS] [--log FILE]
# Environment: ACCEL=tcg|kvm (tcg: /dev/kvm exists on our machines but QEMU cannot use
# it when nested), GDBPORT (default 1234), MEM (default 256M), QEMU_EXTRA.
# In test and run modes the exit status is the guest's (see vm/guest/qexit.c);
# 124 means the guest hung past the timeout, 125 that it died without reporting.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

kernel="" initrd="" mode=shell smp=1 disk="" gdb=0 timeout=600 log=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--disk) disk=$2; shift 2 ;;
	--gdb) gdb=1; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	*) die "qemu.sh: unknown argument $1" ;;
	esac
done
[ -f "$kernel" ] || die "no kernel at '$kernel' (make lab LAB=n builds it)"
[ -f "$initrd" ] || die "no initramfs at '$initrd'"
require_cmd qemu-system-i386 qemu-system-x86

accel=${ACCEL:-tcg}
# shellcheck disable=SC2054 # the commas belong to QEMU options
# One core a socket: SeaBIOS's MP table lists one CPU a package, and the lab kernel has
# no ACPI (vm/config/lab.config), so -smp N alone would bring up one CPU.
args=(-M pc -accel "$accel" -m "${MEM:-256M}" -smp "$smp,sockets=$smp,cores=1,threads=1" -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)
# nokaslr is belt and braces (the config has no RANDOMIZE_BASE); panic=-1 reboots at
# once on a panic, and -no-reboot turns that reboot into QEMU's exit.
append="console=ttyS0 nokaslr panic=-1 lab.mode=$mode lab.smp=$smp ${APPEND:-}"
if [ -n "$disk" ]; then
	args+=(-drive "file=$disk,if=virtio,format=raw")
fi
if [ "$gdb" = 1 ]; then
	port=${GDBPORT:-1234}
	args+=(-gdb "tcp:127.0.0.1:$port" -S)
	say "QEMU is paused at the first instruction, GDB stub on port $port."
	say "attach with: make gdb LAB=${LAB:-n} GDBPORT=$port   (in another terminal)"
fi
# shellcheck disable=SC2206 # QEMU_EXTRA is split on purpose
args+=(${QEMU_EXTRA:-})

if [ "$mode" = shell ]; then
	say "serial console on this terminal; Ctrl-A X quits QEMU"
	exec qemu-system-i386 "${args[@]}" -nographic -append "$append"
fi

# Batch: serial to stdout (and the log), no monitor, no stdin; bounded by a timeout.
[ -n "$log" ] || log=/dev/null
set +e
timeout --foreground -k 5 "$timeout" qemu-system-i386 "${args[@]}" \
	-display none -monitor none -serial stdio -append "$append" </dev/null |
	tr -d '\r' | tee "$log"
rc=${PIPESTATUS[0]}
set -e
case "$rc" in
124 | 137) warn "the guest did not finish within ${timeout}s: treated as a hang"; exit 124 ;;
0) warn "the guest stopped without reporting a status (panic or reboot)"; exit 125 ;;
*) if [ $((rc & 1)) -eq 1 ]; then exit $(((rc - 1) / 2)); fi
	warn "QEMU failed (exit $rc)"; exit 125 ;;
esac
