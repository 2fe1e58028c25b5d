#!/bin/sh
# Sourced by the guest's stress tests (busybox sh): the stressors, and the KernelStack meter.
# shellcheck shell=sh

# The stressors of Lab 6 that this kernel config (tinyconfig + vm/kernel/config/lab.config)
# runs; see labs/lab6/README.md for the ones it cannot (no sockets, no SysV IPC, no mq).
#   scheduler: switch (context switches over pipes), yield, affinity, schedpolicy
#   futex, pipe, poll
#   signals: signal, sigq, sigsuspend, sigfd, sigrt
#   timers: timer, itimer, hrtimers, timerfd, nanosleep
#   fork/exec: fork, vfork, clone, exec, wait, zombie
#   memory: vm, malloc, mmap, mremap (small sizes: the guest has 256 MiB)
cd /tmp || exit 1
STRESSORS="--switch 1 --yield 1 --affinity 1 --schedpolicy 1 --futex 1 --pipe 1 --poll 1
	--signal 1 --sigq 1 --sigsuspend 1 --sigfd 1 --sigrt 1
	--timer 1 --itimer 1 --hrtimers 1 --timerfd 1 --nanosleep 1
	--fork 1 --vfork 1 --clone 1 --exec 1 --wait 1 --zombie 1
	--vm 1 --vm-bytes 16M --malloc 1 --malloc-bytes 8M --mmap 1 --mmap-bytes 8M
	--mremap 1 --mremap-bytes 8M"

# the phase length: stress.time=S on the kernel command line (vm/stress/stress.sh), default 30 s
STRESS_TIME=$(sed -n 's/.*stress\.time=\([0-9]*\).*/\1/p' /proc/cmdline)
STRESS_TIME=${STRESS_TIME:-30}

# run_stress: stress-ng as nobody (its exec stressor refuses root), every stressor at once
run_stress() {
	# shellcheck disable=SC2086 # STRESSORS is a list of words
	/tests/nobody /usr/bin/stress-ng --temp-path /tmp --timeout "${STRESS_TIME}s" \
		--metrics-brief $STRESSORS
}

# kstack: kernel stacks that belong to no thread, in 8 kB stacks: KernelStack / 8 kB minus
# the threads in /proc. Fibril stacks (and leaked ones) count; a kworker the load started
# does not (it is a thread).
kstack() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	kb=$(awk '/^KernelStack:/ { print $2 }' /proc/meminfo)
	set -- /proc/[0-9]*/task/[0-9]*
	echo $((kb / 8 - $#))
}

# kstack_back BASELINE: back at BASELINE stacks without a thread within 5 s?
kstack_back() {
	i=0
	while [ "$i" -lt 50 ]; do
		now=$(kstack)
		[ "$now" -le "$1" ] && { echo "kernel stacks without a thread: $1 before, $now after"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	echo "kernel stacks without a thread: $1 before, $now after: not back (leaked fibril stacks?)"
	return 1
}

# labtest_summary RC: the summary line every test ends with (labs/include/labtest.h): the
# host passes a test that exited 0 only when its summary, with the boot's nonce, agrees.
labtest_summary() {
	if [ "$1" = 0 ]; then set -- 1 0; else set -- 0 1; fi
	echo "labtest: $1 passed, $2 failed, nonce=${LABTEST_NONCE:-none}"
}
