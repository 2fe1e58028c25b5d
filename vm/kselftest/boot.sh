#!/usr/bin/env bash
# One kernel's run of the kernel's own selftests:
#   vm/kselftest/boot.sh SELFTESTS BZIMAGE OUT [KERNEL_ARGS]
# SELFTESTS is what vm/kselftest/build.sh made (the programs and their list). Boots
# BZIMAGE on -smp 2 with them and the runner (vm/kselftest/runner.c) as the guest's one
# test, KERNEL_ARGS appended to its command line (a mode: sysctl.kernel.asys_cachemiss=1).
# Writes OUT.log (the guest's log) and OUT.tsv: a header, then one row a selftest,
# "name result seconds" from the runner's records that carry this boot's nonce, and a
# last row "(kernel log)" that is "clean" or "splat" (vm/logscan.sh: BUG, WARNING, Oops,
# lockdep, hung task). A selftest the runner never reported is "not-run".
# Exit status: 0 when the guest ran to its end and reported; 1 otherwise (OUT.tsv is
# written either way, so the comparison can say what is missing).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

selftests=${1:?usage: vm/kselftest/boot.sh SELFTESTS BZIMAGE OUT [KERNEL_ARGS]}
image=${2:?no kernel image} out=${3:?no output name} kernel_args=${4:-}
[ -f "$selftests/list" ] || die "no selftests in $selftests (vm/kselftest/build.sh makes them)"

work=$(mktemp -d "$BUILD/kselftest-boot.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The guest's tests folder: the runner is its one test; the selftests sit beside it.
mkdir -p "$work/tests/kselftest"
gcc -m32 -static -O2 -Wall -Werror -I"$top/labs/include" -o "$work/tests/kselftest-runner" \
	"$top/vm/kselftest/runner.c" || die "vm/kselftest/runner.c does not compile (make deps: gcc-multilib)"
echo kselftest-runner >"$work/tests/list"
# not its .build scratch folder: the programs, their list and execveat's files only
(cd "$selftests" && tar --exclude=./.build -cf - .) | tar -xf - -C "$work/tests/kselftest"
"$top/vm/boot/initramfs.sh" "$work/initramfs.cpio.gz" --tests "$work/tests"

nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
# The whole list's limits, and the boot around them: a hang is caught, not waited out.
limit=$(awk -F'\t' 'NR > 1 { s += $3 } END { print s + 300 }' "$selftests/list")
rc=0
APPEND="lab.timeout=$limit ${APPEND:-}${kernel_args:+ $kernel_args}" "$top/vm/boot/qemu.sh" \
	--kernel "$image" --initrd "$work/initramfs.cpio.gz" --mode test --smp 2 \
	--timeout "$((limit + 60))" --log "$out.log" --nonce "$nonce" --verdict "$work/verdict" \
	>/dev/null 2>"$work/qemu.err" || rc=$?

{
	printf 'name\tresult\tseconds\n'
	# The runner's records, "# kselftest NAME RESULT SECONDS NONCE" once /init has
	# prefixed them; the list says which selftests there should be.
	awk -F'\t' -v nonce="$nonce" '
		FNR == NR { if (FNR > 1) want[++n] = $1; next }
		$1 == "# kselftest" && $5 == nonce { result[$2] = $3; secs[$2] = $4 }
		END { for (i = 1; i <= n; i++) {
			name = want[i]
			printf "%s\t%s\t%s\n", name, (name in result) ? result[name] : "not-run",
				(name in secs) ? secs[name] : "-" } }' "$selftests/list" "$out.log"
	if "$top/vm/logscan.sh" "$out.log" >/dev/null 2>&1; then
		printf '(kernel log)\tclean\t-\n'
	else
		printf '(kernel log)\tsplat\t-\n'
	fi
} >"$out.tsv"
verdict=$(cat "$work/verdict" 2>/dev/null || echo qemu-failed)
[ "$verdict" = "status 0" ] || [ "$verdict" = "status 1" ] || {
	warn "$(basename "$out"): the guest did not report ($verdict, QEMU status $rc; $(tail -1 "$work/qemu.err" 2>/dev/null))"
	exit 1
}
