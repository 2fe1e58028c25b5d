#!/usr/bin/env bash
# vm/check/grade-all.sh: make check's test of make grade-all, on lab 0, with
# six hand-ins:
#   correct     the reference solution: graded, full marks, flagged as the reference's
#   incomplete  a comment in fs/proc/array.c and nothing else: graded, the exercise fails
#   broken      a change to a file the tree does not have: does-not-apply, every test 0
#   copied      the reference solution with written answers (handin/answers.md): still
#               flagged as the reference's (written work must not hide a copy), and its
#               answers counted
#   constants   a wrong answer that prints 8192 and 1024 for every task (labs/lab0/wrong/):
#               graded, the exercise at 0
#   forged      the same, and a do_group_exit() that makes every kstack_ program exit 0:
#               refused (lab 0's hand-ins may change fs/proc/ only), every test at 0, and
#               its exit-code lines listed in the suspicious column. (Where a lab lets a
#               hand-in change kernel/, the test's own summary still counts its failed
#               checks: the self-test's cheat "rewritten" is that case.)
# graded once with JOBS=2 on this machine, once more (nothing may be graded again), and
# once with HOSTS= over ssh, to an sshd of this test's own on a loopback port with a
# throw-away key, stopped after. Each run's CSV and JSON must say the above. And the
# runner of the programs a hand-in carries (vm/grade/batch/run-program.sh) must report a
# program's exit status, and one that does not build.
# The grading runs in an instructor's clone of this repository made where instructors
# met the sandbox failing (vm/check/instructor-clone.sh): under /tmp, in a folder
# of mode 0700 (mktemp's). There a sandbox that cannot start (a bwrap that fails) must
# give the hand-in the status grader-error, never a student's does-not-build, and make
# grade-all must exit 3.
# Then make gradescope's autograder grades the correct and the incomplete hand-in in the
# same clone's build folder, where their kernels are look-ups (vm/check/gradescope.sh).
# Prints one line per check; exit 1 when one fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

work="$BUILD/check/grade-all"
rm -rf "$work"
mkdir -p "$work/handins"
failed=0
check() { report_check grade-all "$@"; }
echo "== make grade-all LAB=0: a correct, an incomplete, a broken, a copied, a wrong and a forged hand-in; JOBS=2, then HOSTS= over ssh =="

# The hand-ins, made with git plumbing in build/src (lab 0 starts at tag base).
cat "$top"/solutions/lab0/*.patch >"$work/handins/correct.patch"
cp "$top/labs/lab0/wrong/constants.patch" "$work/handins/constants.patch"
cp "$top/labs/lab0/wrong/forged-exit.patch" "$work/handins/forged.patch"
index="$work/index"
blob=$(git -C "$BUILD/src" show base:fs/proc/array.c | sed '1a /* lab 0: started, not done yet */' |
	git -C "$BUILD/src" hash-object -w --stdin)
GIT_INDEX_FILE=$index git -C "$BUILD/src" read-tree base
GIT_INDEX_FILE=$index git -C "$BUILD/src" update-index --cacheinfo "100644,$blob,fs/proc/array.c"
tree=$(GIT_INDEX_FILE=$index git -C "$BUILD/src" write-tree)
commit=$(git -C "$BUILD/src" -c user.name=student -c user.email=student@fibrils.invalid \
	commit-tree "$tree" -p base -m "lab0: a start")
git -C "$BUILD/src" format-patch -1 --stdout "$commit" >"$work/handins/incomplete.patch"
sed 's#fs/proc/array.c#fs/proc/no_such_file.c#g; s#^index [0-9a-f]*\.\.[0-9a-f]*#index 1111111..2222222#' \
	"$work/handins/incomplete.patch" >"$work/handins/broken.patch"
# copied: the reference's tree plus handin/answers.md, as make handin packs it.
GIT_INDEX_FILE=$index git -C "$BUILD/src" read-tree base
(cd "$BUILD/src" && GIT_INDEX_FILE=$index git apply --cached "$work/handins/correct.patch")
# the lab's template with an answer written in, as a student hands it in
answers=$({ cat "$top/labs/lab0/answers.md"; printf '%s\n' "" "The kernel stack is 8 KiB on i386: THREAD_SIZE."; } |
	git -C "$BUILD/src" hash-object -w --stdin)
GIT_INDEX_FILE=$index git -C "$BUILD/src" update-index --add --cacheinfo "100644,$answers,handin/answers.md"
tree=$(GIT_INDEX_FILE=$index git -C "$BUILD/src" write-tree)
commit=$(git -C "$BUILD/src" -c user.name=student -c user.email=student@fibrils.invalid \
	commit-tree "$tree" -p base -m "lab0: hand-in")
git -C "$BUILD/src" format-patch -1 --stdout "$commit" >"$work/handins/copied.patch"

# expect RUN: the CSV and JSON of a run in $work/RUN say what the header promises.
expect() {
	local run=$1 csv="$work/$1/lab0-grades.csv" json="$work/$1/lab0-grades.json" verdict
	verdict=$(python3 - "$csv" "$json" <<'PY'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
js = {r["student"]: r for r in json.load(open(sys.argv[2]))["rows"]}
bad = []
def want(ok, what):
    if not ok:
        bad.append(what)
c, i, b, p = rows.get("correct"), rows.get("incomplete"), rows.get("broken"), rows.get("copied")
want(c and c["status"] == "graded" and int(c["total"]) == int(c["max"]) > 0 and c["copy_of_reference"] == "yes",
     "correct: graded, full marks, a copy of the reference: %s" % c)
want(i and i["status"] == "graded" and 0 < int(i["total"]) < int(i["max"]) and i["copy_of_reference"] == "no"
     and i["kstack_status"] == "0", "incomplete: graded, the exercise at 0: %s" % i)
want(b and b["status"] == "does-not-apply" and int(b["total"]) == 0 and int(b["max"]) == int(c["max"]),
     "broken: does-not-apply, 0 of the full max: %s" % b)
want(p and p["status"] == "graded" and p["copy_of_reference"] == "yes" and int(p["written:answers.md"]) > 0,
     "copied: the reference with written answers, still a copy of it, its answers counted: %s" % p)
w = rows.get("constants")
want(w and w["status"] == "graded" and w["kstack_status"] == "0" and w["copy_of_reference"] == "no",
     "constants: graded, the exercise at 0: %s" % w)
w = rows.get("forged")
want(w and w["status"] == "refused-path" and int(w["total"]) == 0, "forged: refused-path, 0: %s" % w)
f = rows.get("forged")
want(f and "kernel/exit.c" in f["suspicious"] and c["suspicious"] == "",
     "the forgery's do_group_exit() lines are listed as suspicious, the reference's none: %s / %s"
     % (f and f["suspicious"], c["suspicious"]))
want(set(js) == {"correct", "incomplete", "broken", "copied", "constants", "forged"}
     and js["correct"]["total"] == int(c["total"]), "the JSON has the same rows and totals")
print("; ".join(bad) if bad else "ok: correct %s/%s, incomplete %s/%s, broken %s, constants %s/%s, forged %s/%s" % (
    c["total"], c["max"], i["total"], i["max"], b["status"], rows["constants"]["total"], c["max"],
    rows["forged"]["total"], c["max"]))
PY
) || verdict="the CSV or JSON cannot be read"
	check "$run" "$([ "${verdict%%:*}" = ok ] && echo 1 || echo 0)" "$verdict"
}

# The instructor's clone, removed at the end (its hand-in builds are nobody's: root removes them).
clone_parent=$(mktemp -d)
clone="$clone_parent/fibrils"
sshd_pid=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -z "$sshd_pid" ] || kill "$sshd_pid" 2>/dev/null || true
	rm -rf "$clone_parent"
}
trap cleanup EXIT
"$top/vm/check/instructor-clone.sh" "$clone" 0 >"$work/clone.out" 2>&1 ||
	{ cat "$work/clone.out"; die "could not make the instructor's clone in $clone"; }
# grade_all ARGS...: the clone's make grade-all, with the clone's own build folder.
grade_all() { BUILD="$clone/build" "$clone/vm/grade/batch/grade-all.sh" "$@"; }

grade_all 0 "$work/handins" 2 "" "$work/jobs" >"$work/jobs.out" 2>&1 || true
expect jobs
grade_all 0 "$work/handins" 2 "" "$work/jobs" >"$work/again.out" 2>&1 || true
check unchanged-not-regraded "$(grep -q '6 unchanged since their last grading, 0 to grade' "$work/again.out" && echo 1 || echo 0)" \
	"$(grep -o '[0-9]* hand-ins, .* to grade' "$work/again.out" || echo 'no summary line')"

# A sandbox that cannot start: the grader's failure. The hand-in is the correct one under
# another subject, so that no kernel of it is in the store and it must be built.
mkdir -p "$work/no-sandbox/handins" "$work/no-sandbox/bin"
sed 's/^Subject: \[PATCH\] /Subject: [PATCH] (again) /' "$work/handins/correct.patch" >"$work/no-sandbox/handins/correct-again.patch"
printf '#!/bin/sh\necho "bwrap: No permissions to create a new namespace" >&2\nexit 1\n' >"$work/no-sandbox/bin/bwrap"
chmod +x "$work/no-sandbox/bin/bwrap"
rc=0
PATH="$work/no-sandbox/bin:$PATH" grade_all 0 "$work/no-sandbox/handins" 1 "" "$work/no-sandbox/out" >"$work/no-sandbox.out" 2>&1 || rc=$?
row=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["rows"][0]; print(r["status"], r["total"], r.get("why", ""))' \
	"$work/no-sandbox/out/lab0-grades.json" 2>/dev/null || echo "no row")
# grader-error for the sandbox, not for something else that failed first
said=$(grep -ho 'sandbox: it cannot be set up here[^:]*' "$work/no-sandbox/out/lab0-grades/"*/grade.out 2>/dev/null | head -1 || true)
check sandbox-fails-grader-error "$([ "$rc" = 3 ] && [[ "$row" == "grader-error 0 "*"kernel.sh exit 5"* ]] && [ -n "$said" ] && echo 1 || echo 0)" \
	"a bwrap that cannot start: make grade-all exit $rc (3 wanted), row: $row; grade.out: ${said:-no word of the sandbox}"
kept=$(find "$work/no-sandbox/out/lab0-grades" -name '*.key' 2>/dev/null | wc -l)
check grader-error-not-kept "$([ "$kept" = 0 ] && echo 1 || echo 0)" "$kept rows kept: a grader-error row is graded again next time"

# A program a hand-in carries (Lab 6's reproducer) is built and run alone in a guest.
printf '#include <stdio.h>\nint main(void)\n{\n\tputs("reproducer: ran");\n\treturn 3;\n}\n' >"$work/exits3.c"
printf 'int main(void)\n{\n\treturn undeclared;\n}\n' >"$work/broken.c"
ran=$("$top/vm/grade/batch/run-program.sh" "$("$top/vm/kernel/kernel.sh" 0 solved)" "$work/exits3.c" "$work/run-exits3")
check run-program "$([ "$ran" = "exit 3" ] && grep -q '^reproducer: ran' "$work/run-exits3/guest.log" && echo 1 || echo 0)" \
	"a program that prints a line and exits 3: $ran"
ran=$("$top/vm/grade/batch/run-program.sh" "$("$top/vm/kernel/kernel.sh" 0 solved)" "$work/broken.c" "$work/run-broken")
check run-program-does-not-build "$([ "$ran" = does-not-build ] && echo 1 || echo 0)" "a program gcc refuses: $ran"

# An sshd of our own: loopback only, a throw-away host key and user key, this user only.
ssh_dir="$work/ssh"
mkdir -p "$ssh_dir"
chmod 700 "$ssh_dir"
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/user_key"
cp "$ssh_dir/user_key.pub" "$ssh_dir/authorized_keys"
port=$(free_port)
cat >"$ssh_dir/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $ssh_dir/host_key
AuthorizedKeysFile $ssh_dir/authorized_keys
PidFile $ssh_dir/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
CONF
[ "$(id -u)" != 0 ] || mkdir -p /run/sshd # the privilege separation folder sshd wants as root
/usr/sbin/sshd -D -e -f "$ssh_dir/sshd_config" 2>"$ssh_dir/sshd.log" &
sshd_pid=$!
ssh_cmd="ssh -p $port -i $ssh_dir/user_key -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
for _ in 1 2 3 4 5 6 7 8 9 10; do
	if $ssh_cmd "$(id -un)@127.0.0.1" true 2>/dev/null; then break; fi
	sleep 0.5
done
echo "2/$ssh_cmd $(id -un)@127.0.0.1" >"$work/hosts"
REMOTE_REPO=$clone grade_all 0 "$work/handins" 2 "$work/hosts" "$work/hosts-run" >"$work/hosts.out" 2>&1 || true
expect hosts-run
over_ssh=$(grep -c "\"logs\": \"$(hostname):" "$work/hosts-run/lab0-grades.json" 2>/dev/null || true)
check graded-over-ssh "$([ "$over_ssh" -ge 1 ] && grep -q 'Accepted publickey' "$ssh_dir/sshd.log" && echo 1 || echo 0)" \
	"$over_ssh rows graded through ssh to 127.0.0.1:$port ($(grep -c 'Accepted publickey' "$ssh_dir/sshd.log" || true) logins)"
kill "$sshd_pid"
wait "$sshd_pid" 2>/dev/null || true
sshd_pid=

# Each hand-in's results.json, as Gradescope would get it, beside its row.
n_json=$(find "$work/jobs/lab0-grades" -mindepth 2 -maxdepth 2 -name results.json | wc -l)
check results-json-per-handin "$([ "$n_json" = 6 ] && echo 1 || echo 0)" "$n_json of 6 hand-ins have a results.json beside their logs"
"$top/vm/check/gradescope.sh" "$clone/build" "$work/handins/correct.patch" "$work/handins/incomplete.patch" || failed=1
[ "$failed" = 0 ] || echo "  (logs: ${work#"$top"/}/*.out)"
exit "$failed"
