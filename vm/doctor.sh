#!/usr/bin/env bash
# make doctor: preflight. Prints what is ready and what is not; exits 1 if something
# would stop make check.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"
bad=0
ok()   { printf '  ok    %s\n' "$*"; }
fail() { printf '  FAIL  %s\n' "$*"; bad=1; }
note() { printf '  note  %s\n' "$*"; }

echo "packages (vm/packages.txt):"
while read -r p; do
	case "$p" in "#"* | "") continue ;; esac
	v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) || v=""
	if [ -n "$v" ]; then ok "$p $v"; else fail "$p missing: run 'make deps'"; fi
done <"$top/vm/packages.txt"
if compgen -G "$BUILD/debs/busybox-static_*_i386.deb" >/dev/null; then
	ok "busybox-static:i386 .deb in build/debs"
else
	fail "the i386 busybox is not downloaded: run 'make deps'"
fi
tested=$(cat "$top/vm/kernel/TESTED_VERSION")
have=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
if [ "$have" = "$tested" ]; then
	ok "linux-source-6.1 is the tested version $tested"
else
	fail "linux-source-6.1 is ${have:-missing}; the series was tested against $tested (ALLOW_UNTESTED=1 builds anyway)"
fi

echo "disk:"
free_gb=$(df -BG --output=avail "$top" | tail -1 | tr -dc 0-9)
# Measured after a full make check (2026-12-07): build/ 7.1G, ccache 0.4G; a student's
# lab tree ~2G.
if [ "$free_gb" -ge 10 ]; then
	ok "${free_gb}G free under $top (make check uses ~7.5G, each student lab tree ~2G more)"
else
	fail "only ${free_gb}G free under $top: make check needs about 7.5G, and room to build"
fi

echo "grading hand-ins (make grade-all, make check SUBMISSION=):"
# A hand-in's kernel is built in vm/sandbox.sh, as nobody: from here, can it reach
# the build script and the source tree? (A folder no other user may enter is mended by
# the sandbox itself; files only root may read are not.)
case "$top" in *[[:space:]:]*) fail "$top has a space or a colon: the kernel's build cannot run from it (Kbuild refuses such paths): clone elsewhere" ;; esac
probe=$(mktemp -d)
if "$top/vm/sandbox.sh" --ro "$top" "$probe" -- /bin/true 2>"$probe.err"; then
	ok "the sandbox starts here and reads this repository"
else
	fail "the sandbox cannot build hand-ins from $top: $(tail -1 "$probe.err")"
fi
rm -rf "$probe" "$probe.err"

echo "GDB:"
port=${GDBPORT:-1234}
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	fail "port $port is in use: pick another with GDBPORT=n"
else
	ok "GDB port $port is free"
fi
ok "make gdb allows auto-load of vmlinux-gdb.py from the lab's build folder only (add-auto-load-safe-path)"

echo "accelerator:"
if [ -e /dev/kvm ]; then
	# Paused (-S), a QEMU that could start KVM just waits, and the timeout ends it
	# (status 124); one that cannot fails at once with its own status.
	rc=0
	timeout 5 qemu-system-i386 -accel kvm -M pc -display none -monitor none -serial none -S \
		</dev/null >/dev/null 2>&1 || rc=$?
	if [ "$rc" = 124 ]; then
		note "KVM may work here: ACCEL=kvm is an opt-in"
	else
		note "/dev/kvm exists but QEMU cannot use it (nested): TCG, the default, is used"
	fi
else
	note "no /dev/kvm: TCG, the default, is used"
fi
exit "$bad"
