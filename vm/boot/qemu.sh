#!/usr/bin/env bash
# Boot a lab kernel in QEMU (i386, TCG by default).
#   vm/boot/qemu.sh --kernel BZIMAGE --initrd CPIO [--mode shell|test|run|walkthrough] [--smp N]
#              [--disk IMG] [--gdb | --gdb-socket PATH] [--timeout SECONDS] [--log FILE]
#              [--nonce WORD] [--verdict FILE] [--confine]
# Environment: ACCEL=tcg|kvm (tcg: /dev/kvm exists on our machines but QEMU cannot use
# it when nested), GDBPORT (default 1234), MEM (default 256M), QEMU_EXTRA.
# In test and run modes the exit status is the guest's, and only when the guest really
# reported it: QEMU's exit status says it got to qexit (vm/boot/guest/qexit.c) and the log
# holds the boot's end line with its nonce. Otherwise: 124, the guest hung past the
# timeout; 125, it died without reporting (panic, reboot, no end line); 126, QEMU
# itself failed (a bad option, KVM that does not work, a GDB port in use).
# --verdict FILE gets one line that cannot be mistaken for a guest's status:
# "status N", "hang", "died" or "qemu-failed".
# --confine (test and run modes): the kernel is a hand-in's, hostile code, and QEMU is
# what stands between it and this machine. QEMU runs in vm/sandbox.sh (as nobody, the
# machine read-only, no network, the kernel and initramfs the only files bound in by
# name, the disk image's folder the only one it may write; the log is written out here
# from QEMU's output) and with QEMU's own seccomp filter (-sandbox: no obsolete system
# calls, no privileges, no new processes, no resource control).
# --gdb-socket PATH: the GDB stub on a unix socket (GDB: target remote PATH), paused at
# the first instruction like --gdb. A confined QEMU has no network, so this is how GDB
# walks through a hand-in's kernel: PATH's folder is then the one it may write (the disk
# image, if any, must be in it too).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

kernel="" initrd="" mode=shell smp=1 disk="" gdb=0 gdb_socket="" timeout=600 log="" nonce="" verdict="" confine=0 scratch=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--disk) disk=$2; shift 2 ;;
	--gdb) gdb=1; shift ;;
	--gdb-socket) gdb_socket=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--nonce) nonce=$2; shift 2 ;;
	--verdict) verdict=$2; shift 2 ;;
	--confine) confine=1; shift ;;
	*) die "qemu.sh: unknown argument $1" ;;
	esac
done
[ -f "$kernel" ] || die "no kernel at '$kernel' (make lab LAB=n builds it)"
[ -f "$initrd" ] || die "no initramfs at '$initrd'"
require_cmd qemu-system-i386 qemu-system-x86
kernel=$(realpath "$kernel") initrd=$(realpath "$initrd") # absolute: --confine binds them by name

accel=${ACCEL:-tcg}
# shellcheck disable=SC2054 # the commas belong to QEMU options
# One core a socket: SeaBIOS's MP table lists one CPU a package, so a kernel that reads
# the MP table rather than ACPI's MADT still finds every CPU QEMU was given.
args=(-M pc -accel "$accel" -m "${MEM:-256M}" -smp "$smp,sockets=$smp,cores=1,threads=1" -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)
# nokaslr is belt and braces (the config has no RANDOMIZE_BASE); panic=-1 reboots at
# once on a panic, and -no-reboot turns that reboot into QEMU's exit. no_timer_check: a
# TCG guest on a loaded host can miss the timer interrupts check_timer() counts during
# boot, and then panics ("IO-APIC + timer doesn't work!"), as make check saw once in a
# run beside two other guests; the timer is QEMU's and works. Virtual machines boot with
# it as a rule.
[ -n "$nonce" ] || nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
append="console=ttyS0 nokaslr no_timer_check panic=-1 lab.mode=$mode lab.smp=$smp lab.nonce=$nonce ${APPEND:-}"
if [ -n "$disk" ]; then
	args+=(-drive "file=$disk,if=virtio,format=raw")
fi
if [ "$gdb" = 1 ]; then
	port=${GDBPORT:-1234}
	args+=(-gdb "tcp:127.0.0.1:$port" -S)
	say "QEMU is paused at the first instruction, GDB stub on port $port."
	say "attach with: make gdb LAB=${LAB:-n} GDBPORT=$port   (in another terminal)"
fi
if [ -n "$gdb_socket" ]; then
	# sun_path holds 108 bytes: a longer path cannot be bound, and that is ours to say
	[ "${#gdb_socket}" -lt 100 ] || die "qemu.sh: the GDB socket path is too long for a unix socket: $gdb_socket"
	# shellcheck disable=SC2054 # the commas belong to QEMU's options
	args+=(-chardev "socket,id=gdb0,path=$gdb_socket,server=on,wait=off" -gdb chardev:gdb0 -S)
fi
# shellcheck disable=SC2206 # QEMU_EXTRA is split on purpose
args+=(${QEMU_EXTRA:-})

# shell and walkthrough (run /run/prog, then a shell: make walkthrough) are interactive
if [ "$mode" = shell ] || [ "$mode" = walkthrough ]; then
	say "serial console on this terminal; Ctrl-A X quits QEMU"
	exec qemu-system-i386 "${args[@]}" -nographic -append "$append"
fi

# Batch: serial to stdout (and the log), no monitor, no stdin; bounded by a timeout.
[ -n "$log" ] || log=$(mktemp)
qemu=(qemu-system-i386)
if [ "$confine" = 1 ]; then
	[ "$gdb" = 0 ] || die "qemu.sh: --confine and --gdb: the GDB stub's port needs the network the sandbox takes away (--gdb-socket)"
	[ "$accel" = tcg ] || die "qemu.sh: --confine runs TCG only (the sandbox has no /dev/kvm)"
	if [ -n "$gdb_socket" ]; then
		writable=$(cd "$(dirname "$gdb_socket")" && pwd)
		[ -z "$disk" ] || [ "$(cd "$(dirname "$disk")" && pwd)" = "$writable" ] ||
			die "qemu.sh: --confine writes one folder: the disk image must be beside the GDB socket"
	elif [ -n "$disk" ]; then writable=$(cd "$(dirname "$disk")" && pwd); else
		scratch=$(mktemp -d) writable=$scratch
	fi
	# shellcheck disable=SC2054 # the commas belong to QEMU's option
	qemu=("$top/vm/sandbox.sh" --ro "$kernel" --ro "$initrd" "$writable" -- "${qemu[@]}"
		-sandbox on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny)
fi
# end WHAT CODE MESSAGE: record the verdict, say why when it is not the guest's, exit.
end() {
	[ -z "$scratch" ] || rm -rf "$scratch"
	[ -z "$verdict" ] || echo "$1" >"$verdict"
	[ -z "$3" ] || warn "$3"
	exit "$2"
}
set +e
timeout --foreground -k 5 "$timeout" "${qemu[@]}" "${args[@]}" \
	-display none -monitor none -serial stdio -append "$append" </dev/null |
	tr -d '\r' | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$confine" = 1 ] && [ "$rc" = 125 ] && [ ! -s "$log" ]; then
	end qemu-failed 126 "the sandbox could not start QEMU (vm/sandbox.sh exit 125): the grader's failure"
fi
case "$rc" in
124 | 137) end hang 124 "the guest did not finish within ${timeout}s: treated as a hang" ;;
0) end died 125 "the guest stopped without reporting a status (panic or reboot)" ;;
1) end qemu-failed 126 "QEMU failed (exit 1) before the guest reported anything: see its message above" ;;
esac
if [ $((rc & 1)) -eq 0 ]; then end qemu-failed 126 "QEMU failed (exit $rc)"; fi
# The guest wrote STATUS + 1 (at most 127); its end line has the exact status.
status=$(sed -n "s/^lab-end nonce=$nonce status=\([0-9][0-9]*\)\$/\1/p" "$log" | tail -1)
[ -n "$status" ] || end died 125 "the guest exited without its end line (lab-end nonce=$nonce): its status cannot be trusted"
reported=$(((rc - 1) / 2 - 1))
if [ "$reported" != "$status" ] && { [ "$reported" != 126 ] || [ "$status" -lt 126 ]; }; then
	end died 125 "the guest's end line says status $status, its exit says $reported"
fi
end "status $status" "$status" ""
