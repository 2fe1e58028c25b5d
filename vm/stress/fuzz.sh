#!/usr/bin/env bash
# make fuzz [ITER=n] [SEED=s] [SMP=k]: run the asys fuzzer (labs/lab6/tests/asys_fuzz.c) in
# a guest of the fully solved Lab 4 kernel (vm/stress/fuzz-kernel.sh). The run passes when the
# fuzzer finds no ABI violation, KernelStack and slab are back at their baseline, the
# kmemleak scan at the end is clean and vm/logscan.sh finds no kernel problem.
#   vm/stress/fuzz.sh ITER SEED SMP [BZIMAGE]   (empty ITER/SEED: the fuzzer's defaults)
# FUZZ_OPTS adds fuzzer options (fuzz.threads=4 fuzz.signals=0 ...). Log: results/fuzz-smpK.log.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

iter=${1:-} seed=${2:-} smp=${3:-2} kernel=${4:-}
[ -n "$kernel" ] || kernel=$("$top/vm/stress/fuzz-kernel.sh" 4)
work="$BUILD/fuzz"
tests="$work/fuzz-tests"
rm -rf "$tests"
mkdir -p "$tests" "$top/results"
gcc -m32 -static -O2 -Wall -Werror -pthread -I"$top/labs/include" -o "$tests/asys_fuzz" \
	"$top/labs/lab6/tests/asys_fuzz.c" || die "the fuzzer does not compile (gcc -m32 -static; make deps installs gcc-multilib)"
echo asys_fuzz >"$tests/list"
"$top/vm/boot/initramfs.sh" "$work/fuzz.cpio.gz" --tests "$tests"

# TCG ran 2,000-4,500 requests a second here; allow 50 a second on top of 5 min.
n=${iter:-5000}
timeout=$((300 + n / 50))
log="$top/results/fuzz-smp$smp.log"
append="lab.timeout=$timeout ${iter:+fuzz.iter=$iter} ${seed:+fuzz.seed=$seed} ${FUZZ_OPTS:-}"
say "fuzzing asys: ${iter:+ITER=$iter }${seed:+SEED=$seed }-smp $smp (log: ${log#"$top"/})"
t0=$(date +%s)
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
set +e
APPEND="$append" "$top/vm/boot/qemu.sh" --kernel "$kernel" --initrd "$work/fuzz.cpio.gz" --mode test \
	--smp "$smp" --timeout $((timeout + 60)) --log "$log" --nonce "$nonce" >/dev/null
rc=$?
set -e
grep -a '^# ' "$log" | grep -avE '^# (running|lab tests done|kmemleak scan done|test-seconds)' | sed 's/^# /  /'
ok=1
[ "$(tap_result "$log" "$nonce" asys_fuzz)" = pass ] || ok=0
[ "$rc" = 0 ] || { echo "guest status $rc (124: hung, 125: died, 126: QEMU failed)"; ok=0; }
problems="$top/results/fuzz-smp$smp.kernel-problems"
"$top/vm/logscan.sh" "$log" >"$problems" || true
if [ -s "$problems" ]; then
	echo "kernel problems (${problems#"$top"/}):"
	head -20 "$problems" | sed 's/^/    /'
	ok=0
fi
echo "fuzz: $([ "$ok" = 1 ] && echo PASS || echo FAIL) on -smp $smp in $(($(date +%s) - t0)) s"
[ "$ok" = 1 ]
