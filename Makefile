# The fibrils teaching lab: the one front door. `make help` lists every target.
#
# The two commands that set up everything on a fresh Debian 12 machine:
#   make demo    build a lab kernel, boot it in QEMU, run the demo program
#   make check   grade every lab (builds, boots, runs the tests and GDB walkthroughs)

SHELL := /bin/bash
LABS := $(sort $(patsubst labs/lab%/tests.conf,%,$(wildcard labs/lab*/tests.conf)))
LAB ?= $(lastword $(LABS))
SMP ?= 1
GDBPORT ?= 1234
export GDBPORT ACCEL LAB
# MINE=1: run-guest, fuzz and stress boot your own lab LAB kernel (rebuilt by make lab
# first, so an edit is never run stale) instead of the reference one
MINE_DEP = $(if $(filter 1,$(MINE)),lab)
MINE_IMAGE = $(if $(filter 1,$(MINE)),$(LABDIR)/obj/arch/x86/boot/bzImage)

LABDIR := build/lab$(LAB)
DISK ?=
DISKARG := $(if $(DISK),--disk $(DISK))

.PHONY: help deps doctor lab qemu qemu-gdb disk gdb walkthrough gdb-soak docs-check check check-loaded grade grade-all gradescope hint mutants release handin run-guest docs demo lint kselftest clean distclean

help: ## this list
	@echo "Targets (LAB=n picks a lab, default the latest: $(LAB); labs: $(LABS)):"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | awk -F'\t' '{ printf "  %-12s %s\n", $$1, $$2 }'

deps: ## install every Debian package needed (idempotent; sudo when not root)
	@vm/deps.sh

doctor: ## preflight: packages, disk, GDB port, GDB auto-load, KVM
	@vm/doctor.sh

lab: deps ## prepare lab LAB's kernel tree in build/labN/src and build it
	@vm/kernel/student-lab.sh $(LAB)

qemu: lab ## boot lab LAB's kernel to a shell on the serial console (SMP=k, DISK=img)
	@vm/boot/lab-initramfs.sh $(LAB) $(LABDIR)/initramfs.cpio.gz
	@vm/boot/qemu.sh --kernel $(LABDIR)/obj/arch/x86/boot/bzImage --initrd $(LABDIR)/initramfs.cpio.gz --smp $(SMP) $(DISKARG)

qemu-gdb: lab ## like qemu, paused at the first instruction with a GDB stub on GDBPORT
	@vm/boot/lab-initramfs.sh $(LAB) $(LABDIR)/initramfs.cpio.gz
	@vm/boot/qemu.sh --kernel $(LABDIR)/obj/arch/x86/boot/bzImage --initrd $(LABDIR)/initramfs.cpio.gz --smp $(SMP) $(DISKARG) --gdb

disk: ## a fresh 96 MiB ext4 image, build/disk.img, for DISK= (Lab 1 on)
	@vm/boot/disk.sh build/disk.img 96M

gdb: ## GDB on lab LAB's vmlinux, lx- scripts and gdbscripts/ loaded, attached to GDBPORT
	@vm/boot/gdb.sh $(LABDIR)/obj

walkthrough: deps ## a GDB walkthrough live in tmux, step by step (LAB=n [NAME=lab4-restart] [KERNEL=own] [BYHAND=1])
	@vm/boot/walkthrough.sh $(LAB) $(NAME)

check: deps ## grade every lab (or LAB=n; SUBMISSION=file.patch grades a student's patch), optional challenges' hidden tests too
	@vm/check/check.sh "$(if $(filter command line environment,$(origin LAB)),$(LAB))" "$(SUBMISSION)"

check-loaded: deps ## make check with LOAD busy loops beside it (default one per CPU): verdicts must not need a quiet host [LAB=n]
	@vm/check/check-loaded.sh "$(if $(filter command line environment,$(origin LAB)),$(LAB))" "$(LOAD)"

hint: ## the next hint of exercise EX of lab LAB, one at a time (no EX: how many each exercise has)
	@vm/grade/hint.sh $(LAB) $(EX)

grade: deps ## grade your own lab LAB tree (build/labN/src, committed or not) as make check would
	@vm/grade/grade-own.sh $(LAB)

mutants: deps ## how many wrong answers lab LAB's tests reject: results/labN-mutants.tsv and .md [EXERCISE=k] [JOBS=j]
	@vm/grade/mutants/mutants.sh $(LAB) $(EXERCISE)

grade-all: deps ## grade every HANDINS=dir/*.patch of lab LAB into results/labN-grades.csv and .json [JOBS=j] [HOSTS=sshloginfile]
	@test -n "$(HANDINS)" || { echo "usage: make grade-all LAB=n HANDINS=dir [JOBS=j] [HOSTS=file]"; exit 2; }
	@vm/grade/batch/grade-all.sh $(LAB) "$(HANDINS)" "$(or $(JOBS),1)" "$(HOSTS)"

gradescope: deps ## a Gradescope autograder for lab LAB: build/gradescope/labN-autograder.zip (its README.md: the settings)
	@vm/gradescope/package.sh $(LAB)

release: ## the student edition: a git repository at OUT=dir with the solutions of labs < SOLVED=k only
	@test -n "$(OUT)" && test -n "$(SOLVED)" || { echo "usage: make release OUT=dir SOLVED=k"; exit 2; }
	@vm/release/release.sh "$(OUT)" "$(SOLVED)"

gdb-soak: deps ## run lab LAB's GDB walkthroughs RUNS times in a row (default 10) and report each run
	@vm/check/gdb-soak.sh $(LAB) $(or $(RUNS),10)

handin: ## write your work on lab LAB as handin-labN.patch
	@vm/grade/handin.sh $(LAB)

run-guest: deps $(MINE_DEP) ## boot lab LAB's solved kernel (MINE=1: your own) with PROG=static-i386-binary, exit with its status
	@test -n "$(PROG)" || { echo "usage: make run-guest PROG=path [LAB=n] [SMP=k] [MINE=1]"; exit 2; }
	@vm/boot/run-guest.sh "$(PROG)" "$(LAB)" "$(SMP)" $(MINE_IMAGE)

.PHONY: bench
bench: deps ## Labs 5 and 7: build the fully solved non-debug kernel, run the benchmarks under -icount (both asys modes), table + plot in docs/lab5.md
	@vm/bench/bench.sh

docs: ## build the annotated walkthrough (docs/*.md, figures docs/figures/*.dot) into build/docs
	@vm/docs/build.sh

docs-check: deps ## build the docs and check every page in headless Chromium (links, images, screenshots)
	@vm/docs/check.sh

demo: deps ## the main job: build, boot, and run the demo in the guest
	@vm/boot/demo.sh

lint: ## shellcheck every script, and checkpatch every patch in patches/ and solutions/
	@shellcheck -x vm/*.sh vm/*/*.sh vm/*/*/*.sh vm/boot/guest/init vm/gradescope/autograder/run_autograder .ci/run labs/*/host/*.sh
	@vm/check/checkpatch.sh

.PHONY: fuzz stress trinity
# SMP defaults to 2 here (make fuzz and make stress are about concurrency), 1 elsewhere.
HSMP = $(if $(filter command line environment,$(origin SMP)),$(SMP),2)

fuzz: deps $(MINE_DEP) ## fuzz the asys ABI in the solved Lab 4 kernel (MINE=1: your lab LAB kernel): [ITER=n] [SEED=s] [SMP=k, default 2]
	@vm/stress/fuzz.sh "$(ITER)" "$(SEED)" "$(HSMP)" $(MINE_IMAGE)

stress: deps $(MINE_DEP) ## Debian's stress-ng in the solved kernel (MINE=1: yours), alone and beside the fuzzer [SMP=k] [TIME=s]
	@vm/stress/stress.sh --smp "$(HSMP)" --time "$(or $(TIME),30)" $(if $(MINE_IMAGE),--kernel $(MINE_IMAGE))

kselftest: deps ## the kernel's own selftests on the stock kernel and the fibril kernels (Lab 4, Lab 7 both modes): results/kselftest.tsv
	@vm/check/kselftests.sh

trinity: deps ## Debian's trinity syscall fuzzer as nobody, solved Lab 7 kernel, both asys modes [CALLS=n, default 20000]: results/trinity.tsv
	@vm/stress/trinity.sh $(CALLS)

clean: ## remove build outputs but keep the kernel trees (your work) and ccache
	rm -rf results build/check build/guest build/docs build/initramfs.*

distclean: ## remove build/ entirely, kernel trees included (your work too!)
	rm -rf build results
