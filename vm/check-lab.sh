#!/usr/bin/env bash
# Grade one lab: vm/check-lab.sh LAB start|solved [SUBMISSION.patch]
# Gets the lab's kernel from vm/kernel.sh (start tree, solved tree, or start + a student's
# patch; built once per distinct tree), boots it once per SMP setting in
# labs/labLAB/tests.conf, and prints one line per test:
#   solved/submission: every test must pass;
#   start: every "exercise" test must FAIL (a test that cannot fail is a defect) and
#          every other test must pass.
# A lab whose tests.conf says "start-build OBJECT" checks its start tree by building that
# one object alone: its exercises are host checks that read the object's debug info, and
# its other tests run on the solved tree only.
# A guest log with a kernel warning, or a guest that hangs or panics, fails the run.
# Appends "lab variant smp test result points" rows to results/results.tsv.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib.sh"

lab=$1 variant=$2 submission=${3:-}
conf="$top/labs/lab$lab/tests.conf"
[ -f "$conf" ] || die "no $conf"
results="$top/results"
mkdir -p "$results"
tag="lab$lab-$variant"
[ -z "$submission" ] || tag="lab$lab-submission"
work="$BUILD/check/run/$tag"
rm -rf "$work"
mkdir -p "$work"

# --- the kernel ---
# (make check built it already, while the previous lab's guests ran: this is a look-up.)
kernel=$("$top/vm/kernel.sh" "$lab" "$variant" ${submission:+"$submission"})
debuginfo="$kernel/vmlinux"
only_object=
if [ -f "$kernel/debug.o" ]; then
	debuginfo="$kernel/debug.o"
	only_object=$(awk '$1 == "start-build" { print $2 }' "$conf")
fi

# --- the tests ---
smps=$(awk '$1 == "smp" { $1 = ""; print }' "$conf")
[ -z "$only_object" ] || smps=none
disk_size=$(awk '$1 == "disk" { print $2 }' "$conf")
[ "$smps" = none ] || "$top/vm/lab-initramfs.sh" "$lab" "$work/initramfs.cpio.gz" "$work/tests"

failed=0 got=0 max=0
report() { # name result points expected-to-fail
	local name=$1 ok=$2 pts=$3 want_fail=$4 shown
	if [ "$want_fail" = 1 ]; then
		if [ "$ok" = 1 ]; then shown="FAIL (passes on the start tree: it cannot fail)"; ok=0;
		else shown="OK (fails on the start tree, as it must)"; ok=1; fi
	else
		if [ "$ok" = 1 ]; then shown="OK"; else shown="FAIL"; fi
	fi
	printf '  %-34s %s (%s pts)\n' "$name" "$shown" "$pts"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$lab" "${tag#lab"$lab"-}" "$smp" "$name" \
		"$([ "$ok" = 1 ] && echo PASS || echo FAIL)" "$pts" >>"$results/results.tsv"
	max=$((max + pts))
	if [ "$ok" = 1 ]; then got=$((got + pts)); else failed=1; fi
}

# host_test NAME SMP LOG: run labs/labLAB/host/NAME.sh; 0 when it passed.
host_test() {
	local t0 rc=0
	t0=$(date +%s)
	LOG=$3 DISK=${disk:-} KERNEL=$kernel DEBUGINFO=$debuginfo VARIANT=$variant \
		bash "$top/labs/lab$lab/host/$1.sh" >"$results/$tag-smp$2-$1.out" 2>&1 || rc=1
	timing other "$(($(date +%s) - t0))" "lab $lab $variant host $1"
	return "$rc"
}

if [ "$smps" = none ]; then
	echo "== lab $lab: $variant, $only_object alone (its debug info is what the exercise checks) =="
	smp=-
	while read -r kind name pts flag; do
		if [ "$kind" != host ] || [ "${flag:-}" != exercise ]; then continue; fi
		ok=0
		host_test "$name" 0 /dev/null && ok=1
		report "$name" "$ok" "$pts" 1
	done < <(grep -vE '^[[:space:]]*(#|$)' "$conf" | awk '{ print $1, $2, $3, $4 }')
	smps=
fi

for smp in $smps; do
	echo "== lab $lab: $variant${submission:+ + $(basename "$submission")}, -smp $smp =="
	log="$results/$tag-smp$smp.log"
	disk_args=()
	disk=
	if [ -n "$disk_size" ]; then
		disk="$work/disk-smp$smp.img"
		"$top/vm/disk.sh" "$disk" "$disk_size" >/dev/null
		disk_args=(--disk "$disk")
	fi
	t0=$(date +%s)
	set +e
	"$top/vm/qemu.sh" --kernel "$kernel/bzImage" --initrd "$work/initramfs.cpio.gz" \
		--mode test --smp "$smp" --timeout "${GUEST_TIMEOUT:-900}" --log "$log" "${disk_args[@]}" >/dev/null
	guest_rc=$?
	set -e
	timing boot "$(($(date +%s) - t0))" "lab $lab $variant -smp $smp"
	echo "  (guest ran $(($(date +%s) - t0)) s, log: ${log#"$top"/})"

	while read -r kind name pts flag; do
		case "$kind" in
		test | exercise)
			ok=0
			grep -qE "^ok [0-9]+ - $name\$" "$log" && ok=1
			want_fail=0
			[ "$variant" = start ] && [ -z "$submission" ] && [ "$kind" = exercise ] && want_fail=1
			report "$name" "$ok" "$pts" "$want_fail"
			;;
		host)
			ok=0
			host_test "$name" "$smp" "$log" && ok=1
			want_fail=0
			[ "$variant" = start ] && [ -z "$submission" ] && [ "${flag:-}" = exercise ] && want_fail=1
			report "$name" "$ok" "$pts" "$want_fail"
			;;
		esac
	done < <(grep -vE '^[[:space:]]*(#|$)' "$conf" | awk '{ print $1, $2, $3, $4 }')

	ok=1
	[ "$guest_rc" = 0 ] || ok=0
	"$top/vm/logscan.sh" "$log" >"$results/$tag-smp$smp.kernel-problems" || ok=0
	[ "$ok" = 1 ] || sed 's/^/    /' "$results/$tag-smp$smp.kernel-problems" | head -20
	report "guest-clean (no hang, panic, warning)" "$ok" 0 0
	# The disk was checked (Lab 1's e2fsck): 96 MiB a boot is not worth keeping.
	[ -z "$disk" ] || rm -f "$disk"
done

# GDB walkthroughs are graded on the solved tree only: they follow the reference code.
if [ "$variant" = solved ] || [ -n "$submission" ]; then
	while read -r _ name pts; do
		echo "== lab $lab: GDB walkthrough $name =="
		smp=1
		ok=0
		t0=$(date +%s)
		"$top/vm/gdb-check.sh" "$lab" "$name" "$kernel" "$work" >"$results/$tag-gdb-$name.log" 2>&1 && ok=1
		timing gdb "$(($(date +%s) - t0))" "lab $lab $name"
		[ "$ok" = 1 ] || tail -15 "$results/$tag-gdb-$name.log" | sed 's/^/    /'
		report "gdb:$name" "$ok" "$pts" 0
	done < <(awk '$1 == "gdb"' "$conf")
fi

echo "Score: lab $lab ${tag#lab"$lab"-}: $got/$max"
[ "$failed" = 0 ] || echo "  failing guest logs are in results/ (named $tag-smp*.log)"
exit "$failed"
