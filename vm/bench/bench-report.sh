#!/usr/bin/env bash
# vm/bench/bench-report.sh FIGURES WALL DOC PNG: the report of make bench.
#   FIGURES  "name value" lines from the -icount run (vm/bench/bench-run.sh ... icount), or,
#            where there is no -icount (ACCEL=kvm), from the wall-clock run
#   WALL     "name value" lines from the wall-clock run ("-" when there is none)
#   DOC      the results chapter (docs/lab5.md): the part between its two marker lines
#            "<!-- make bench: begin -->" and "<!-- make bench: end -->" is rewritten
#   PNG      the plot (gnuplot), which DOC embeds
# Prints the table, the lab's targets met or missed, and at the end one
# "RESULT name=value" line per figure (guest instructions per operation).
# UNIT (env): what FIGURES counts, "guest instructions" (default) or "ns (KVM)".
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -eq 4 ] || die "usage: $0 FIGURES WALL DOC PNG"
figs=$1 wall=$2 doc=$3 png=$4
unit=${UNIT:-guest instructions}
require_cmd gnuplot gnuplot-nox
if ! grep -q '^<!-- make bench: begin -->$' "$doc" || ! grep -q '^<!-- make bench: end -->$' "$doc"; then
	die "$doc lacks the marker lines '<!-- make bench: begin -->' and '<!-- make bench: end -->'"
fi

names=(direct_syscall asys_inline asys_roundtrip asys_inline_cachemiss asys_roundtrip_cachemiss
	thread_per_call_roundtrip worker_thread_roundtrip iouring_async_roundtrip iouring_roundtrip
	fibril_switch process_switch)
declare -A what=(
	[direct_syscall]="getpid(), directly: the floor"
	[asys_inline]="asys: getpid() on a fibril, submit + await"
	[asys_roundtrip]="asys: read blocks on a fibril; write; await"
	[asys_inline_cachemiss]="asys, cachemiss mode (Lab 7): getpid() on the submitter's stack, submit + await"
	[asys_roundtrip_cachemiss]="asys, cachemiss mode (Lab 7): read blocks on the submitter's stack, the user context moves; write; await"
	[thread_per_call_roundtrip]="a thread per call: create, read blocks; write; join"
	[worker_thread_roundtrip]="a pre-started worker: futex hand-off, read blocks; write; futex wait"
	[iouring_async_roundtrip]="io_uring, IOSQE_ASYNC, pipe: read punted to io-wq at submit; write; reap"
	[iouring_roundtrip]="io_uring, pipe: 6.1 pipes lack FMODE_NOWAIT: poll armed, then io-wq reads; write; reap"
	[fibril_switch]="one fibril switch (Lab 2 self-test)"
	[process_switch]="one process switch (pipe ping-pong, incl. write + read)"
	[asys_eventfd_roundtrip]="extra: asys_roundtrip on an eventfd (read 8 bytes, write a count of 1)"
	[asys_eventfd_roundtrip_cachemiss]="extra: asys_roundtrip_cachemiss on an eventfd"
	[direct_pipe_rw]="extra: write(1 byte) + read(1 byte) on a pipe, directly: nothing blocks"
	[iouring_eventfd_roundtrip]="extra, io_uring's working path: eventfd read retried from task work, no io-wq; write; reap"
	[asys_socketpair_roundtrip]="extra, on a socket: asys_roundtrip reading 1 byte from an AF_UNIX stream socketpair"
	[asys_socketpair_roundtrip_cachemiss]="extra, on a socket: asys_roundtrip_cachemiss on the socketpair"
	[thread_per_call_socketpair_roundtrip]="extra, on a socket: thread_per_call_roundtrip on the socketpair"
	[iouring_socketpair_roundtrip]="extra, on a socket: io_uring reads the socket (FMODE_NOWAIT: poll armed, read from task work, no io-wq); write; reap"
	[asys_inline_ring_batch1]="asys with a ring (Lab 8), cachemiss: 1 getpid() per submit, completion read from the ring"
	[asys_inline_ring_batch8]="asys with a ring (Lab 8), cachemiss: 8 getpid()s per submit, per call"
	[asys_inline_ring_batch32]="asys with a ring (Lab 8), cachemiss: 32 getpid()s per submit, per call"
	[asys_eventfd_roundtrip_ring]="asys with a ring (Lab 8), cachemiss: eventfd read blocks, the user context moves; write; the ring"
	[asys_pipe_roundtrip_ring]="asys with a ring (Lab 8), cachemiss: the same on a pipe"
	[iouring_nop_batch1]="io_uring: 1 IORING_OP_NOP per io_uring_enter(), reaped from its ring"
	[iouring_nop_batch32]="io_uring: 32 IORING_OP_NOPs per io_uring_enter(), per call")
# Figures printed when the benchmarks gave them (table rows and RESULT lines), not the lab's targets.
extras=(direct_pipe_rw iouring_eventfd_roundtrip asys_eventfd_roundtrip asys_eventfd_roundtrip_cachemiss
	asys_socketpair_roundtrip asys_socketpair_roundtrip_cachemiss thread_per_call_socketpair_roundtrip
	iouring_socketpair_roundtrip asys_inline_ring_batch1 asys_inline_ring_batch8 asys_inline_ring_batch32
	asys_eventfd_roundtrip_ring asys_pipe_roundtrip_ring iouring_nop_batch1 iouring_nop_batch32)
declare -A fig=() wt=()
while read -r n v; do fig[$n]=$v; done <"$figs"
if [ "$wall" != - ]; then while read -r n v; do wt[$n]=$v; done <"$wall"; fi
for n in "${names[@]}"; do [ -n "${fig[$n]:-}" ] || die "no figure for $n in $figs"; done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
group() { printf '%s' "$1" | sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta'; }
target() { # name: figure op bound description
	local ok
	ok=$(awk -v a="$2" -v b="$4" -v op="$3" 'BEGIN { print (op == "<=" ? a <= b : 0) ? "met" : "MISSED" }')
	printf '| %s | %s | %s | %s |\n' "$1" "$5" "$(ratio "$2" "$4")" "$ok"
}

floor=${fig[direct_syscall]}
{
	echo "| figure | what one operation is | $unit | × direct_syscall | TCG wall ns (indicative) |"
	echo "|---|---|---:|---:|---:|"
	for n in "${names[@]}" "${extras[@]}"; do
		[ -n "${fig[$n]:-}" ] || continue
		# shellcheck disable=SC2016 # the backquotes are Markdown
		printf '| `%s` | %s | %s | %s | %s |\n' "$n" "${what[$n]}" "$(group "${fig[$n]}")" \
			"$(ratio "${fig[$n]}" "$floor")" "$(group "${wt[$n]:--}")"
	done
} >"$BUILD/bench/table.md"
{
	echo "| the lab's target | reads | ratio | |"
	echo "|---|---|---:|---|"
	target "asys_roundtrip ≤ 1/3 thread_per_call_roundtrip" "${fig[asys_roundtrip]}" "<=" \
		"$(awk -v t="${fig[thread_per_call_roundtrip]}" 'BEGIN { print t / 3 }')" "asys / (thread per call / 3)"
	target "asys_roundtrip ≤ iouring_async_roundtrip" "${fig[asys_roundtrip]}" "<=" \
		"${fig[iouring_async_roundtrip]}" "asys / io_uring async"
	target "fibril_switch ≤ 1/5 process_switch" "${fig[fibril_switch]}" "<=" \
		"$(awk -v t="${fig[process_switch]}" 'BEGIN { print t / 5 }')" "fibril / (process / 5)"
	target "asys_inline ≤ 3 × direct_syscall" "${fig[asys_inline]}" "<=" \
		"$(awk -v t="$floor" 'BEGIN { print 3 * t }')" "asys inline / (3 × direct)"
	target "asys_inline_cachemiss ≤ 2 × direct_syscall (Lab 7)" "${fig[asys_inline_cachemiss]}" "<=" \
		"$(awk -v t="$floor" 'BEGIN { print 2 * t }')" "cachemiss inline / (2 × direct)"
	target "asys_roundtrip_cachemiss ≤ iouring_eventfd_roundtrip (Lab 7)" "${fig[asys_roundtrip_cachemiss]}" "<=" \
		"${fig[iouring_eventfd_roundtrip]}" "cachemiss round trip / io_uring eventfd"
	# Lab 8's, on a kernel with the ring
	if [ -n "${fig[asys_inline_ring_batch32]:-}" ]; then
		target "asys_inline_ring_batch1 ≤ 2 × direct_syscall (Lab 8)" "${fig[asys_inline_ring_batch1]}" "<=" \
			"$(awk -v t="$floor" 'BEGIN { print 2 * t }')" "ring, batch of 1 / (2 × direct)"
		target "asys_inline_ring_batch32 ≤ 0.5 × direct_syscall (Lab 8)" "${fig[asys_inline_ring_batch32]}" "<=" \
			"$(awk -v t="$floor" 'BEGIN { print t / 2 }')" "ring, batch of 32, per call / (direct / 2)"
		target "asys_eventfd_roundtrip_ring ≤ iouring_eventfd_roundtrip (Lab 8)" "${fig[asys_eventfd_roundtrip_ring]}" "<=" \
			"${fig[iouring_eventfd_roundtrip]}" "ring round trip / io_uring eventfd"
	fi
} >"$BUILD/bench/targets.md"

# The plot: one bar per figure, log scale (the figures span three decades).
data="$BUILD/bench/plot.dat"
for n in "${names[@]}" "${extras[@]}"; do
	[ -z "${fig[$n]:-}" ] || printf '%s %s\n' "$n" "${fig[$n]}"
done | tr _ - >"$data"
mkdir -p "$(dirname "$png")"
gnuplot <<GP
set terminal pngcairo size 900,480 font "sans,10"
set output "$png"
set title "Lab 5: the same work, done several ways ($unit per operation, log scale)"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.7
set logscale y
set yrange [100:*]
set ylabel "$unit"
set xtics rotate by -30 left nomirror
set grid ytics
unset key
set bmargin 7
plot "$data" using 2:xtic(1) lc rgb "#4477aa", "" using 0:2:(sprintf("%.0f", \$2)) with labels offset 0,0.7
GP
# vm/docs/build.sh copies only style.css next to the HTML: put the plot where the HTML looks.
mkdir -p "$BUILD/docs/images"
cp "$png" "$BUILD/docs/images/"

stamp="Generated by \`make bench\` on $(date -u +%Y-%m-%d) (kernel: ${BENCH_KERNEL_DESC:-the solved Lab 7 tree, vm/kernel/config/bench.config})."
{
	echo "$stamp"
	echo
	echo "![$unit per operation](images/$(basename "$png"))"
	echo
	cat "$BUILD/bench/table.md"
	echo
	cat "$BUILD/bench/targets.md"
} >"$BUILD/bench/section.md"
awk -v sec="$BUILD/bench/section.md" '
	/^<!-- make bench: end -->$/ { while ((getline l < sec) > 0) print l; skip = 0 }
	!skip { print }
	/^<!-- make bench: begin -->$/ { skip = 1 }' "$doc" >"$doc.new"
mv "$doc.new" "$doc"

echo
cat "$BUILD/bench/table.md"
echo
cat "$BUILD/bench/targets.md"
echo
echo "(plot: ${png#"$top"/}; chapter: ${doc#"$top"/})"
for n in "${names[@]}"; do echo "RESULT $n=${fig[$n]}"; done
# and the extras the benchmarks gave (the eventfd and socketpair round trips)
for n in "${extras[@]}"; do [ -z "${fig[$n]:-}" ] || echo "RESULT $n=${fig[$n]}"; done
