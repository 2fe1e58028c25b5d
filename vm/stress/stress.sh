#!/usr/bin/env bash
# make stress [SMP=k] [TIME=s]: Debian's stress-ng (i386, vm/stress/deb-root.sh) in a guest of the
# fully solved kernel: its scheduler, context-switch, futex, pipe, poll, signal, timer,
# fork/exec and memory stressors (labs/lab6/stress/stress-lib.sh), first alone, then while
# the asys fuzzer runs, each for TIME seconds. Passes when both runs exit 0, KernelStack is
# back at its baseline after each, the kmemleak scan is clean and vm/logscan.sh finds no
# kernel problem.
#   vm/stress/stress.sh [--kernel BZIMAGE] [--smp N] [--time S] [--log FILE] [--work DIR]
# Without --kernel it builds the one make fuzz uses (vm/stress/fuzz-kernel.sh). --work is the
# folder of this run's own files (default build/stress/run): two runs at once (make
# grade-all JOBS=2 on Lab 6) each name their own, and their own --log.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

kernel="" smp=2 time=30 log="" work="$BUILD/stress/run"
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--time) time=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	*) die "stress.sh: unknown argument $1" ;;
	esac
done
[ -n "$kernel" ] || kernel=$("$top/vm/stress/fuzz-kernel.sh" 4)
[ -n "$log" ] || log="$top/results/stress-smp$smp.log"
mkdir -p "$(dirname "$log")"
# stress-ng's tree and its archive are shared by every run: made once, under a lock.
shared="$BUILD/stress"
mkdir -p "$shared"
(
	flock 9
	"$top/vm/stress/deb-root.sh" stress-ng /usr/bin/stress-ng "$shared/root"
	if [ ! -f "$shared/root.cpio.gz" ] || [ "$shared/root/usr/bin/stress-ng" -nt "$shared/root.cpio.gz" ]; then
		(cd "$shared/root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$shared/root.cpio.gz.new"
		mv "$shared/root.cpio.gz.new" "$shared/root.cpio.gz"
	fi
) 9>"$shared.lock"

tests="$work/tests"
rm -rf "$tests"
mkdir -p "$tests"
cc() { gcc -m32 -static -O2 -Wall -Werror -pthread -I"$top/labs/include" "$@" ||
	die "gcc -m32 -static failed. Run 'make deps' (gcc-multilib)."; }
cc -o "$tests/asys_fuzz" "$top/labs/lab6/tests/asys_fuzz.c"
cc -o "$tests/nobody" "$top/labs/lab6/stress/nobody.c"
install -m 644 "$top/labs/lab6/stress/stress-lib.sh" "$tests/stress-lib.sh"
for t in stress_alone stress_fuzz; do
	install -m 755 "$top/labs/lab6/stress/$t.sh" "$tests/$t"
	echo "$t"
done >"$tests/list"
"$top/vm/boot/initramfs.sh" "$work/base.cpio.gz" --tests "$tests"
# stress-ng and its libraries: a second archive after the first (the kernel unpacks both)
cat "$work/base.cpio.gz" "$shared/root.cpio.gz" >"$work/initramfs.cpio.gz"

timeout=$((time * 2 + 120))
say "stress-ng on -smp $smp: ${time} s alone, ${time} s beside the asys fuzzer (log: ${log#"$top"/})"
t0=$(date +%s)
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
set +e
APPEND="stress.time=$time lab.timeout=$timeout ${FUZZ_OPTS:-}" "$top/vm/boot/qemu.sh" --kernel "$kernel" \
	--initrd "$work/initramfs.cpio.gz" --mode test --smp "$smp" --timeout $((timeout * 2 + 60)) \
	--log "$log" --nonce "$nonce" >/dev/null
rc=$?
set -e
# the lines worth reading: stress-ng's summary and failures, the fuzzer's figures, the meter
grep -aE '^# (stress-ng: (info|fail|error).*(passed|failed|skipped|fail:|error:|successful run)|stress-ng exit|asys_fuzz|requests:|completions:|started:|VIOLATION|KernelStack|kernel stacks|running)' "$log" |
	sed 's/^# /  /' || true
ok=1
for t in stress_alone stress_fuzz; do
	if [ "$(tap_result "$log" "$nonce" "$t")" = pass ]; then echo "  $t: OK"; else echo "  $t: FAIL"; ok=0; fi
done
[ "$rc" = 0 ] || { echo "  guest status $rc (124: hung, 125: died, 126: QEMU failed)"; ok=0; }
problems="${log%.log}.kernel-problems"
"$top/vm/logscan.sh" "$log" >"$problems" || true
if [ -s "$problems" ]; then
	echo "  kernel problems ($problems):"
	head -20 "$problems" | sed 's/^/    /'
	ok=0
fi
echo "stress: $([ "$ok" = 1 ] && echo PASS || echo FAIL) on -smp $smp in $(($(date +%s) - t0)) s"
[ "$ok" = 1 ]
