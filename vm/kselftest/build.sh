#!/usr/bin/env bash
# Build a subset of the kernel's own selftests as static i386 programs:
#   vm/kselftest/build.sh SRC OUTDIR
# SRC is a Linux 6.1 tree (read only: nothing is written into it; the kernel's headers
# are installed with O= and the selftests are built from a copy). OUTDIR gets the
# stripped programs, flat, the files execveat needs beside it (execveat.symlink,
# execveat.denatured, script, subdir/), and OUTDIR/list: a header line
# "name<TAB>target<TAB>timeout_s", then one row a program. OUTDIR/.build is scratch
# (kept, so that a second run only rebuilds what changed).
#
# The guest is busybox, no libraries, 256 MB, TCG, and the lab kernel (tinyconfig +
# vm/kernel/config/lab.config): no INET, SYSVIPC, POSIX_MQUEUE, BPF_SYSCALL, KEYS,
# USERFAULTFD, AIO, FHANDLE, CHECKPOINT_RESTORE, KCMP, SECCOMP, RTC_CLASS, VM86,
# MODIFY_LDT_SYSCALL, and no namespaces but the mount namespace (no Kconfig option).
# Left out, and why:
#   x86 *_64, vm/va_128TBswitch...  64-bit only
#   timers nanosleep nsleep-lat set-timer-lat inconsistency-check  slow: 1-2 min each
#   timers raw_skew (sleeps 120 s), threadtest (30 s), mqueue-lat (POSIX_MQUEUE),
#     rtcpie (RTC_CLASS); the destructive ones set the clock (valid-adjtimex also
#     defines clock_adjtime, which clashes with static glibc)
#   exec load_address.0x* (dynamic PIE: the guest has no ld.so), binfmt_script (python)
#   load_address.static.0x1000000 (16 MB alignment makes a 50 MB file: too big for RAM)
#   clone3_cap_checkpoint_restore (links libcap: libcap-dev:i386, a foreign package),
#     clone3_set_tid (PID namespaces)
#   pidfd_setns_test (every namespace), pidfd_fdinfo_test (its children are in new PID
#     namespaces), pidfd_poll_test (10000 forks: minutes on TCG)
#   proc-empty-vm (#error on i386), proc-loadavg-001 (PID ns), setns-dcache (net ns),
#     setns-sysvipc (SYSVIPC)
#   prctl disable-tsc-*-stress-test (100 processes for 10 s)
#   ptrace vmaccess (its attach case waits out its 30 s harness timeout on 6.1, stock too)
#   A verdict must not depend on a quiet host, nor cost a boot's time for nothing (each
#   was tried in make check's guests, 2026-12-07):
#   futex_wait_timeout (past 30 s on every kernel, stock too, under TCG), futex_requeue
#     (waits 10 ms for its waiter to sleep: failed on stock, passed on fibril kernels),
#     timers posix_timers (times itimers against the wall clock, 0.5 s to spare: a
#     busy host fails it), pidfd_test (12 s, and fails on stock: PID namespaces)
#   openat2 rename_attack_test (400000 rounds); the others lose -fsanitize (no static ASan)
#   syscall_user_dispatch sud_benchmark (a benchmark), memfd fuse_test (libfuse, shell)
#   vm madv_populate (its soft-dirty case needs MEM_SOFT_DIRTY, x86_64 only), the rest
#     of vm (hugetlb, userfaultfd, THP, shell wrappers)
#   size get_size (-nostartfiles: i386 glibc's syscall() jumps through %gs, unset: SIGSEGV)
#   mqueue (POSIX_MQUEUE; libpopt), futex/run.sh and every *.sh or *.py (no scripts),
#     kcmp, nsfs, timens, seccomp, ipc, landlock, pid_namespace, sync, rtc, user_events,
#     capabilities (configured out of the guest or need modules, network or libraries)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

[ $# -eq 2 ] || die "usage: vm/kselftest/build.sh SRC OUTDIR"
src=$(cd "$1" && pwd)
mkdir -p "$2"
outdir=$(cd "$2" && pwd)
[ -f "$src/tools/testing/selftests/lib.mk" ] || die "$src is not a kernel source tree"
case "$outdir/" in "$src"/*) die "OUTDIR must be outside SRC (SRC is read only)" ;; esac

require_cmd make make
require_cmd rsync rsync # headers_install copies with it
require_cmd strip binutils
require_pkg gcc-multilib libc6-dev-i386
jobs=${JOBS:-2} # the machine is shared: at most two compilers at once

# target program timeout_s: one row a program, in the order the guest runs them.
# The limit only catches a hang, far above what a busy host does: 60 s for a test that
# takes a second or so on TCG, 120 s where it sleeps or loops for seconds (fd-001-lookup
# and read took 6 and 11 s unloaded, and ran past 10 and 20 s in a loaded make check).
tests="
x86 single_step_syscall_32 60
x86 sysret_ss_attrs_32 60
x86 syscall_nt_32 60
x86 test_mremap_vdso_32 60
x86 check_initial_reg_state_32 60
x86 sigreturn_32 120
x86 iopl_32 60
x86 ioperm_32 60
x86 test_vsyscall_32 60
x86 mov_ss_trap_32 60
x86 sigtrap_loop_32 60
x86 syscall_arg_fault_32 60
x86 fsgsbase_restore_32 60
x86 sigaltstack_32 60
x86 entry_from_vm86_32 60
x86 test_syscall_vdso_32 60
x86 unwind_vdso_32 60
x86 test_FCMOV_32 60
x86 test_FCOMI_32 60
x86 test_FISTTP_32 60
x86 vdso_restorer_32 60
x86 ldt_gdt_32 120
x86 ptrace_syscall_32 60
vm protection_keys_32 60
vm map_fixed_noreplace 60
vm map_populate 60
vm mremap_dontunmap 60
vm mlock2-tests 60
sigaltstack sas 60
ptrace get_syscall_info 60
ptrace peeksiginfo 60
breakpoints breakpoint_test 60
futex/functional futex_wait_wouldblock 60
futex/functional futex_requeue_pi 120
futex/functional futex_requeue_pi_signal_restart 120
futex/functional futex_requeue_pi_mismatched_ops 60
futex/functional futex_wait_uninitialized_heap 120
futex/functional futex_wait_private_mapped_file 120
futex/functional futex_wait 60
futex/functional futex_waitv 60
exec execveat 120
exec non-regular 60
exec recursion-depth 60
exec null-argv 60
exec load_address.static.0x1000 60
exec load_address.static.0x200000 60
clone3 clone3 60
clone3 clone3_clear_sighand 60
pidfd pidfd_open_test 60
pidfd pidfd_wait 60
pidfd pidfd_getfd_test 60
vDSO vdso_test_gettimeofday 60
vDSO vdso_test_getcpu 60
vDSO vdso_test_abi 60
vDSO vdso_test_clock_getres 60
vDSO vdso_standalone_test_x86 60
vDSO vdso_test_correctness 60
membarrier membarrier_test_single_thread 60
membarrier membarrier_test_multi_thread 60
proc fd-001-lookup 60
proc fd-002-posix-eq 60
proc fd-003-kthread 60
proc proc-pid-vm 60
proc proc-self-map-files-001 60
proc proc-self-map-files-002 60
proc proc-self-syscall 60
proc proc-self-wchan 60
proc proc-subset-pid 60
proc proc-tid0 60
proc proc-uptime-001 120
proc proc-uptime-002 120
proc read 120
proc self 60
proc thread-self 60
proc proc-multiple-procfs 60
proc proc-fsconfig-hidepid 60
mincore mincore_selftest 60
core close_range_test 60
prctl disable-tsc-test 60
openat2 openat2_test 60
openat2 resolve_test 60
syscall_user_dispatch sud_test 60
memfd memfd_test 60
"

scratch=$outdir/.build
tree=$scratch/tree # the copy of SRC the selftest makefiles build in
obj=$scratch/obj   # their OUTPUT
rm -rf "$scratch/log"
mkdir -p "$scratch/log" "$obj"

# i386 uapi headers, from an object folder of their own (kbuild writes nothing in SRC
# with O=). They go where the selftests look by default: $(top_srcdir)/usr/include.
say "kernel headers (ARCH=i386)"
make -s -j"$jobs" -C "$src" O="$scratch/hdr-obj" ARCH=i386 headers_install \
	INSTALL_HDR_PATH="$scratch/usr" >"$scratch/log/headers.log" 2>&1 ||
	{ tail -20 "$scratch/log/headers.log" >&2; die "headers_install failed (log: $scratch/log/headers.log)"; }

# The selftest makefiles run in a copy: some write beside their sources when not asked
# for OUTPUT/name (prctl's all), and some include files outside selftests/ by relative
# path (sigreturn: arch/x86/include; ptrace: include/uapi; vm: mm/gup_test.h and
# ../x86/check_cc.sh). Copy just those, keeping SRC's layout; cp -p keeps the mtimes,
# so make rebuilds only what SRC changed.
targets=$(awk 'NF { print $1 }' <<<"$tests" | sort -u)
rm -rf "$tree"
st=$tree/tools/testing/selftests
mkdir -p "$st" "$tree/include" "$tree/arch/x86/include/asm" "$tree/mm"
for t in lib.mk kselftest.h kselftest_harness.h x86 futex $targets; do
	[ -e "$st/$t" ] || cp -pR "$src/tools/testing/selftests/$t" "$(dirname "$st/$t")/"
done
cp -pR "$src/include/uapi" "$tree/include/"
cp -p "$src/arch/x86/include/asm/desc_defs.h" "$tree/arch/x86/include/asm/"
cp -p "$src/mm/gup_test.h" "$tree/mm/"
ln -s ../usr "$tree/usr"

cc="gcc -m32 -static"
khdr="-isystem $tree/usr/include"

# build TARGET [VAR=VALUE...] PROGRAM...: make PROGRAMs of selftests/TARGET into $obj.
build() {
	local t=$1 a log
	shift
	local vars=() progs=()
	for a in "$@"; do
		case "$a" in *=*) vars+=("$a") ;; *) progs+=("$obj/$t/$a") ;; esac
	done
	log=$scratch/log/${t//\//_}.log
	mkdir -p "$obj/$t"
	say "selftests/$t: ${#progs[@]} programs"
	make -j"$jobs" -C "$st/$t" OUTPUT="$obj/$t" CC="$cc" KHDR_INCLUDES="$khdr" \
		"${vars[@]}" "${progs[@]}" >>"$log" 2>&1 ||
		{ tail -30 "$log" >&2; die "selftests/$t failed to build (log: $log)"; }
}

for t in $targets; do
	# shellcheck disable=SC2046 # one word a program
	set -- $(awk -v t="$t" '$1 == t { print $2 }' <<<"$tests")
	case "$t" in
	# the static PIEs get -static-pie from their own rule; -static would undo it
	exec)
		mapfile -t pies < <(printf '%s\n' "$@" | grep '^load_address')
		mapfile -t rest < <(printf '%s\n' "$@" | grep -v '^load_address')
		build exec "${rest[@]}"
		cc="gcc -m32" build exec "${pies[@]}"
		;;
	# only clone3_cap_checkpoint_restore uses libcap, which we leave out
	clone3) build clone3 LDLIBS= "$@" ;;
	# the installed uapi headers, not SRC's include/ (which wants the kernel's own)
	memfd) build memfd "CFLAGS=-D_FILE_OFFSET_BITS=64 $khdr" "$@" ;;
	# ASan cannot link statically
	openat2) build openat2 "CFLAGS=-Wall -O2 -g" "$@" ;;
	*) build "$t" "$@" ;;
	esac
done

# Install: remove what the last run listed, then copy the new set, stripped.
if [ -f "$outdir/list" ]; then
	tail -n +2 "$outdir/list" | cut -f1 | while read -r name; do rm -f "$outdir/$name"; done
fi
rm -rf "$outdir/execveat.symlink" "$outdir/execveat.denatured" "$outdir/script" "$outdir/subdir"
printf 'name\ttarget\ttimeout_s\n' >"$outdir/list.new"
while read -r t name timeout; do
	[ -n "$t" ] || continue
	[ ! -e "$outdir/$name" ] || die "two programs are named $name"
	strip -o "$outdir/$name" "$obj/$t/$name"
	printf '%s\t%s\t%s\n' "$name" "$t" "$timeout" >>"$outdir/list.new"
done <<<"$tests"
mv "$outdir/list.new" "$outdir/list"

# execveat runs from its own folder and executes these (exec/Makefile's TEST_GEN_FILES).
ln -s execveat "$outdir/execveat.symlink"
cp "$outdir/execveat" "$outdir/execveat.denatured"
chmod -x "$outdir/execveat.denatured"
printf '#!/bin/sh\nexit $*\n' >"$outdir/script"
chmod +x "$outdir/script"
mkdir "$outdir/subdir"

say "$(($(wc -l <"$outdir/list") - 1)) programs in $outdir, $(du -sh --exclude=.build "$outdir" | cut -f1)"
