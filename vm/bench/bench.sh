#!/usr/bin/env bash
# make bench: Lab 5's benchmarks (labs/lab5/README.md), Lab 7's cachemiss pair and Lab 8's
# ring on the fully solved kernel. Builds the last lab's solved tree (every patch and every
# solution, vm/kernel/lab-tree.sh 8 ... solved; asys in its fibril mode unless a benchmark
# switches it to cachemiss mode) with vm/kernel/config/bench.config (no lockdep, kmemleak, list debugging) in
# build/bench/obj, boots it with -icount shift=0 and runs the benchmarks of
# labs/lab5/bench/ (figures in guest instructions), boots it again without -icount
# (TCG wall time, indicative), and prints the table, the targets and the RESULT lines;
# docs/lab5.md and docs/images/lab5-bench.png are rewritten with them (docs/lab8.md and
# docs/images/lab8-bench.png once Lab 8 is the last lab).
# Environment:
#   ACCEL=kvm        where KVM works: no -icount there, figures are KVM wall-clock ns
#   BENCH_WALL=0     skip the wall-clock boot
#   BENCH_KERNEL=bzImage  benchmark this kernel instead of building the solved tree
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

t0=$(date +%s)
work="$BUILD/bench"
mkdir -p "$work"
# The last lab: the fully solved kernel is its solved tree.
last=$(lab_numbers | tail -1)
# In a student edition without the fully solved tree (make release SOLVED=k, k <= last),
# make bench measures the student's own lab k tree (make lab LAB=k), built apart with the
# benchmark config; Lab 7's cachemiss pair only once the tree has cachemiss mode; and the
# report goes to build/bench/, never over the edition's docs/lab5.md.
solved_k=$(edition_solved)
# The order is the handout's: the clock check, then the four ways, then the switches;
# then Lab 7's cachemiss pair and Lab 8's ring, on a kernel that has them.
progs=(labs/lab5/bench/icount_check.c labs/lab5/bench/direct.c labs/lab5/bench/asys_inline.c
	labs/lab5/bench/asys_roundtrip.c labs/lab5/bench/thread_per_call.c
	labs/lab5/bench/worker_thread.c labs/lab5/bench/iouring.c labs/lab2/bench/switch_cost.c)
doc="$top/docs/lab5.md" png="$top/docs/images/lab5-bench.png"
if [ -z "${BENCH_KERNEL:-}" ] && [ -n "$solved_k" ] && [ "$solved_k" -le "$last" ]; then
	own="$BUILD/lab$solved_k/src"
	[ "$solved_k" -ge 4 ] || die "make bench measures asys, which comes with Lab 4: this edition is at lab $solved_k"
	[ -d "$own" ] || die "in this edition make bench measures your own lab $solved_k tree: run make lab LAB=$solved_k first"
	say "this edition has no fully solved tree (RELEASE: SOLVED=$solved_k): measuring your own lab $solved_k tree, build/lab$solved_k/src, as it is"
	rm -rf "$work/src"
	mkdir -p "$work/src"
	# the tree as it is, committed or not, as make grade builds it
	git -C "$own" archive --format=tar "$(worktree_tree "$own")" | tar -x -C "$work/src"
	"$top/vm/kernel/build-kernel.sh" "$work/src" "$work/obj" "$top/vm/kernel/config/bench.config"
	kernel="$work/obj/arch/x86/boot/bzImage"
	desc="your lab $solved_k tree (build/lab$solved_k/src), with vm/kernel/config/bench.config"
	[ "$solved_k" -lt 7 ] || progs+=(labs/lab7/bench/cachemiss.c)
	[ "$solved_k" -lt 8 ] || progs+=(labs/lab8/bench/ring.c)
	# the edition's docs/lab5.md has no results yet (a solution section): a page of its own
	printf '# make bench: your lab %s tree\n\n<!-- make bench: begin -->\n<!-- make bench: end -->\n' \
		"$solved_k" >"$work/lab5.md"
	doc="$work/lab5.md" png="$work/lab5-bench.png"
elif [ -n "${BENCH_KERNEL:-}" ]; then
	progs+=(labs/lab7/bench/cachemiss.c)
	kernel=$BENCH_KERNEL
	desc="$kernel"
else
	compgen -G "$top/patches/0007-*.patch" >/dev/null ||
		die "Lab 7's patch (patches/0007-*.patch) is not in yet: there is no cachemiss mode to measure"
	progs+=(labs/lab7/bench/cachemiss.c)
	if [ "$last" -ge 8 ]; then
		progs+=(labs/lab8/bench/ring.c)
		# Lab 8's kernel keeps stacks unwiped, which moves Lab 5's figures: its table
		# goes to its own chapter, and docs/lab5.md keeps the solved Lab 7 tree's
		doc="$top/docs/lab8.md" png="$top/docs/images/lab8-bench.png"
	fi
	"$top/vm/kernel/lab-tree.sh" "$last" "$work/src" "bench-lab$last" solved
	"$top/vm/kernel/build-kernel.sh" "$work/src" "$work/obj" "$top/vm/kernel/config/bench.config"
	kernel="$work/obj/arch/x86/boot/bzImage"
	desc="the solved Lab $last tree, build/bench/src at $(git -C "$work/src" log -1 --format=%h), with vm/kernel/config/bench.config"
fi
"$top/vm/bench/bench-initramfs.sh" "$work/initramfs.cpio.gz" "$work/progs" "${progs[@]}"

if [ "${ACCEL:-tcg}" = tcg ]; then
	"$top/vm/bench/bench-run.sh" "$kernel" "$work/initramfs.cpio.gz" "$work/icount.txt" icount
	figures="$work/icount.txt" unit="guest instructions" wall=-
	if [ "${BENCH_WALL:-1}" != 0 ]; then
		"$top/vm/bench/bench-run.sh" "$kernel" "$work/initramfs.cpio.gz" "$work/wall.txt" wall
		wall="$work/wall.txt"
	fi
else
	warn "ACCEL=${ACCEL}: no -icount, so the figures are wall-clock ns, not instruction counts"
	"$top/vm/bench/bench-run.sh" "$kernel" "$work/initramfs.cpio.gz" "$work/wall.txt" wall
	figures="$work/wall.txt" unit="ns (${ACCEL})" wall=-
fi

UNIT=$unit BENCH_KERNEL_DESC=$desc "$top/vm/bench/bench-report.sh" "$figures" "$wall" "$doc" "$png"
say "make bench took $(($(date +%s) - t0)) s"
