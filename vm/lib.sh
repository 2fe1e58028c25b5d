# Shared helpers for vm/ scripts: paths, messages, and dependency checks.
# Sourced, not run. Callers set -euo pipefail and define $top.
# shellcheck shell=bash

BUILD=${BUILD:-$top/build}
export BUILD

say()  { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 2; }

# require_pkg PKG...: fail with the command that fixes it when a Debian package is missing.
require_pkg() {
	local p
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
			die "Debian package '$p' is missing. Run 'make deps' (or: apt-get install $p)."
		fi
	done
}

# require_cmd CMD PKG: the same for a command.
require_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' is not installed. Run 'make deps' (or: apt-get install $2)."
}

# edition_solved: in a student edition (make release), the first lab whose reference
# solution it does not have (RELEASE: SOLVED=k); nothing in the instructor's repository.
# free_port: a free TCP port on the loopback interface (for a GDB stub, a web server, sshd)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# lab_numbers: the labs that take part, one number a line, in order: a lab takes part once
# it has a tests.conf (a folder alone is work in progress).
lab_numbers() {
	find "$top/labs" -mindepth 2 -maxdepth 2 -path '*/lab[0-9]*/tests.conf' -printf '%h\n' |
		sed 's|.*/lab||' | sort -n
}

edition_solved() { sed -n 's/^SOLVED=\([0-9][0-9]*\):.*/\1/p' "$top/RELEASE" 2>/dev/null || true; }

# handin_path_allowed "PREFIX..." FILE: may a hand-in change FILE? Only under a prefix of
# the lab's tests.conf handin-paths, or handin/ (its written work); never a build file
# (Makefile, Kbuild, Kconfig), scripts/, the self-test the tests read, or a path with "..".
handin_path_allowed() {
	local prefix ok=1
	for prefix in $1 handin/; do
		case "$2" in "$prefix"*) ok=0 ;; esac
	done
	case "$2" in */Makefile | Makefile | */Kbuild | *Kconfig* | scripts/* | kernel/fibril_selftest.c | *..*) ok=1 ;; esac
	return "$ok"
}

# worktree_tree SRC: the tree of the git worktree SRC as it is, committed or not, made with
# a throw-away index, so that its branch, index and stash stay as they were (make grade
# builds it, make bench in a student edition measures it). Prints the tree's id.
worktree_tree() {
	local index rc=0
	index=$(mktemp)
	{ GIT_INDEX_FILE=$index git -C "$1" read-tree HEAD && GIT_INDEX_FILE=$index git -C "$1" add -A &&
		GIT_INDEX_FILE=$index git -C "$1" write-tree; } || rc=$?
	rm -f "$index"
	return "$rc"
}

# results_row FILE LAB VARIANT BOOT TEST PASS|FAIL POINTS WHY LOG: one graded row of
# results.tsv, a TSV whose first line names the columns (written with the first row):
#   lab variant boot test result points why log
# BOOT is the boot's smp setting (1, 2, 2+cachemiss; - for a check of no boot), WHY what
# the row's line printed in parentheses, LOG the log that explains it (or -).
results_row() {
	local file=$1
	shift
	[ -s "$file" ] || printf 'lab\tvariant\tboot\ttest\tresult\tpoints\twhy\tlog\n' >>"$file"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$file"
}

# report_check GROUP NAME OK(0|1) DETAIL: one line of a make check self-check, and its row
# in results/results.tsv (lab "harness", no points); OK=0 sets failed=1 in the caller.
report_check() {
	mkdir -p "$top/results"
	results_row "$top/results/results.tsv" harness "$1" - "$2" "$([ "$3" = 1 ] && echo PASS || echo FAIL)" 0 "$(tr '\t\n' '  ' <<<"$4")" -
	# shellcheck disable=SC2034 # the caller's
	if [ "$3" = 1 ]; then echo "  $1:$2 OK ($4)"; else echo "  $1:$2 FAIL ($4)"; failed=1; fi
}

# timing CATEGORY SECONDS WHAT: one row of make check's time breakdown, when make check
# asked for one (TIMING_FILE, a TSV whose header names the columns). CATEGORY is build,
# boot, gdb or other, which add up to the run; or test, a part of a boot (below).
timing() {
	[ -n "${TIMING_FILE:-}" ] || return 0
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$TIMING_FILE"
}

# with_guest_slot COMMAND...: run COMMAND (a guest) holding one of GUEST_SLOTS slots, so
# that the labs make check grades at once never run more guests together than that (a
# guest starved of CPU for long sees hung tasks that are not there); without
# GUEST_SLOTS, just run it. Returns COMMAND's status. The slots are lock files in
# GUEST_SLOT_DIR: make check sets it to its own, so that the checks it runs beside the
# labs (a student edition, make grade-all, each with a build folder of its own) count
# their guests against the same cap.
with_guest_slot() {
	[ -n "${GUEST_SLOTS:-}" ] || { "$@"; return; }
	local i fd rc=0 slots=${GUEST_SLOT_DIR:-$BUILD/check/guest-slots}
	mkdir -p "$slots"
	while :; do
		for ((i = 1; i <= GUEST_SLOTS; i++)); do
			exec {fd}>"$slots/$i"
			if flock -n "$fd"; then
				"$@" || rc=$?
				exec {fd}>&-
				return "$rc"
			fi
			exec {fd}>&-
		done
		sleep 1
	done
}

# guest_test_seconds LOG WHAT: the guest's own account of a test boot (init's
# "# test-seconds NAME SECONDS" records: the kernel's boot, each test, the last leak
# scan), one timing row each, category test: where a boot's time goes.
guest_test_seconds() {
	local name secs
	while read -r name secs; do
		timing test "$secs" "$2 $name"
	done < <(sed -n 's/^# test-seconds \([^ ]*\) \([0-9.]*\)$/\1 \2/p' "$1")
}

# tap_result LOG NONCE NAME: what the guest's /init reported for test NAME in this boot
# (result lines carry the boot's nonce, so a line the kernel or a test printed does not
# count). Prints "pass", "fail EXIT" (the test's exit status), "none" (no result: the
# guest died first) or "several" (more than one result line: something forged one).
# A test that exited 0 passes only when its own summary agrees (labs/include/labtest.h):
# every "labtest: P passed, F failed, nonce=NONCE" line it printed says F = 0, and P > 0
# in all. Otherwise "forged-exit F" (its summary counts F failed checks: the exit status
# was rewritten) or "no-summary" (it ended without one: it stopped early, or the line
# was not the test's).
tap_result() {
	local lines
	lines=$(grep -aE "^(ok|not ok) [0-9]+ - $3 # (exit=[0-9]+ )?nonce=$2\$" "$1" || true)
	case "$(grep -c . <<<"$lines")" in
	0) echo none ;;
	1) case "$lines" in
		ok*) test_summary "$1" "$2" "$3" ;;
		*) echo "fail $(sed -E 's/.* # exit=([0-9]+) .*/\1/' <<<"$lines")" ;;
		esac ;;
	*) echo several ;;
	esac
}

# test_summary LOG NONCE NAME: the verdict of test NAME's own summary lines, printed
# between its "# running NAME" line and its result line: pass, forged-exit F, no-summary.
test_summary() {
	awk -v name="$3" -v nonce="$2" '
		$0 == "# running " name { on = 1; next }
		on && /^(not )?ok [0-9]+ - / { on = 0 }
		on && match($0, /^# labtest: [0-9]+ passed, [0-9]+ failed, nonce=/) && substr($0, RLENGTH + 1) == nonce {
			split(substr($0, 11), w, " ")
			lines++; passed += w[1]; failed += w[3]
		}
		END {
			if (!lines || (!failed && !passed)) print "no-summary"
			else if (failed) print "forged-exit " failed
			else print "pass"
		}' "$1"
}
