#!/usr/bin/env bash
# make trinity [CALLS=n]: a syscall fuzzer nobody here wrote. Debian's trinity (i386, with
# exactly its libraries: vm/stress/deb-root.sh) runs unprivileged (as nobody, its own
# rule) in guests of the fully solved Lab 7 kernel on -smp 2, once in asys's fibril mode
# and once in cachemiss mode (labs/lab7/tests.conf's mode line), CALLS system calls each
# (default 20000). trinity knows nothing of asys: it reaches the rest of the kernel the
# series changed (the scheduler, wake-ups, exit, signals, /proc) with arguments nobody
# here chose. Not in make check: a fuzzer's run is a report, not a verdict.
# Writes results/trinity-MODE.log and results/trinity.tsv (mode, calls made, trinity's
# exit status, the kernel log: clean or splat); exits 1 when a kernel log is not clean.
#   vm/stress/trinity.sh [CALLS]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

calls=${1:-20000}
[[ "$calls" =~ ^[1-9][0-9]*$ ]] || die "CALLS=$calls: a number of system calls, 1 or more"
kernel=$("$top/vm/kernel/kernel.sh" 7 solved) || die "the solved Lab 7 kernel did not build"
cachemiss=$("$top/vm/testsconf.py" "$top/labs/lab7" | awk -F'\t' '$1 == "mode" && $2 == "cachemiss" { print $3 }')
[ -n "$cachemiss" ] || die "labs/lab7/tests.conf has no cachemiss mode line"

work="$BUILD/trinity"
mkdir -p "$work" "$top/results"
"$top/vm/stress/deb-root.sh" trinity /usr/bin/trinity "$work/root"
(cd "$work/root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$work/root.cpio.gz"
rm -rf "$work/tests"
mkdir -p "$work/tests"
gcc -m32 -static -O2 -Wall -Werror -o "$work/tests/nobody" "$top/labs/lab6/stress/nobody.c" ||
	die "gcc -m32 -static failed. Run 'make deps' (gcc-multilib)."
install -m 755 "$top/vm/stress/trinity-guest.sh" "$work/tests/trinity"
echo trinity >"$work/tests/list"
"$top/vm/boot/initramfs.sh" "$work/base.cpio.gz" --tests "$work/tests"
# trinity and its libraries: a second archive after the first (the kernel unpacks both)
cat "$work/base.cpio.gz" "$work/root.cpio.gz" >"$work/initramfs.cpio.gz"

# Generous: trinity's rate under TCG is a few hundred calls a second, less when it forks.
timeout=$((calls / 20 + 300))
printf 'mode\tcalls\texit\tkernel_log\n' >"$top/results/trinity.tsv"
rc=0
for mode in fibril cachemiss; do
	args="lab.timeout=$timeout trinity.calls=$calls"
	[ "$mode" = fibril ] || args="$args $cachemiss"
	log="$top/results/trinity-$mode.log"
	say "trinity, $calls calls as nobody, Lab 7 solved, $mode mode, -smp 2 (log: ${log#"$top"/})"
	APPEND="$args" "$top/vm/boot/qemu.sh" --kernel "$kernel/bzImage" --initrd "$work/initramfs.cpio.gz" \
		--mode test --smp 2 --timeout "$((timeout + 60))" --log "$log" >/dev/null 2>&1 || true
	# the guest script's record, once /init has prefixed it
	read -r made status < <(awk -F'\t' '$1 == "# trinity-record" { m = $2; s = $3 } END { print (m == "" ? "none" : m), (s == "" ? "none" : s) }' "$log")
	health=clean
	"$top/vm/logscan.sh" "$log" >/dev/null 2>&1 || { health=splat; rc=1; }
	printf '%s\t%s\t%s\t%s\n' "$mode" "$made" "$status" "$health" >>"$top/results/trinity.tsv"
	echo "  $mode mode: $made calls made, trinity's exit status $status, kernel log $health"
done
exit "$rc"
