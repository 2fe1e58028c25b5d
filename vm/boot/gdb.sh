#!/usr/bin/env bash
# GDB on a lab kernel: vm/boot/gdb.sh OBJ [GDB ARGS...]
# Loads OBJ/vmlinux with the kernel's lx- scripts (auto-load of OBJ/vmlinux-gdb.py is
# allowed for this folder only), sources gdbscripts/*.py, and attaches to the QEMU
# stub on localhost:$GDBPORT (default 1234), or on the unix socket $GDBSOCKET (a confined
# QEMU's: vm/boot/qemu.sh --gdb-socket).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"
require_cmd gdb gdb

obj=$(cd "$1" && pwd)
shift
[ -f "$obj/vmlinux" ] || die "no $obj/vmlinux: build the lab first (make lab LAB=n, make qemu-gdb LAB=n)"
src=$(readlink -f "$obj/source" 2>/dev/null || true)
helpers=()
for py in "$top"/gdbscripts/*.py; do helpers+=(-ex "source $py"); done

exec gdb -q -nx \
	-iex "add-auto-load-safe-path $obj" \
	${src:+-iex "add-auto-load-safe-path $src"} \
	-iex "set pagination off" -iex "set confirm off" \
	-ex "file $obj/vmlinux" \
	"${helpers[@]}" \
	-ex "target remote ${GDBSOCKET:-127.0.0.1:${GDBPORT:-1234}}" \
	"$@"
