#!/usr/bin/env bash
# make grade-all LAB=n HANDINS=dir [JOBS=j] [HOSTS=file] [OUT=dir]: grade every dir/*.patch
# (the file's stem is the student) and write OUT/labN-grades.csv and .json (OUT defaults
# to results/): one row per student, see vm/grade/batch/grade-one.sh for the columns.
#   JOBS   hand-ins graded at once on this machine (default 1); each builds in a folder
#          of its own job slot, so a slot's next hand-in is an incremental build.
#   HOSTS  a GNU parallel --sshloginfile: hand-ins are spread over those machines, each
#          of which holds this repository at the same commit in the same folder (or
#          REMOTE_REPO=path); each host grades with its own kernel store and ccache, and
#          the rows come back here (the logs stay there: the row says host:path).
# A hand-in whose patch and grader (this repository's commit) are the same as at the
# last run is not graded again: its row is kept in OUT/labN-grades/STUDENT.json.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:?usage: $0 LAB HANDINS [JOBS] [HOSTS] [OUT]} handins=${2:?HANDINS=dir of STUDENT.patch files}
jobs=${3:-1} hosts=${4:-} out=${5:-$top/results}
[ -f "$top/labs/lab$lab/tests.conf" ] || die "LAB=$lab: there is no labs/lab$lab/tests.conf"
[ -d "$handins" ] || die "HANDINS=$handins is not a folder"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "JOBS=$jobs: a number of jobs, 1 or more"
[ -z "$hosts" ] || [ -f "$hosts" ] || die "HOSTS=$hosts: no such file (a GNU parallel --sshloginfile)"
require_cmd parallel parallel
handins=$(cd "$handins" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rows="$out/lab$lab-grades"
mkdir -p "$rows"
# The grader is this repository's commit; uncommitted changes to it would not reach
# another host, and would make a kept row lie.
if [ -n "$(git -C "$top" status --porcelain -- vm labs gdbscripts patches solutions Makefile)" ]; then
	die "the grader has uncommitted changes (git status): commit them, so that every host grades with the same"
fi
grader=$(git -C "$top" rev-parse HEAD)

todo=()
kept=0
shopt -s nullglob
patches=("$handins"/*.patch)
[ "${#patches[@]}" -gt 0 ] || die "no *.patch in $handins"
for patch in "${patches[@]}"; do
	student=$(basename "$patch" .patch)
	key="$(sha1sum <"$patch" | cut -c1-40) $grader"
	if [ -f "$rows/$student.key" ] && [ "$(cat "$rows/$student.key")" = "$key" ] && [ -s "$rows/$student.json" ]; then
		kept=$((kept + 1))
		continue
	fi
	rm -f "$rows/$student.json" "$rows/$student.key"
	todo+=("$patch")
done
say "lab $lab: ${#patches[@]} hand-ins, $kept unchanged since their last grading, ${#todo[@]} to grade"

if [ "${#todo[@]}" -gt 0 ]; then
	gathered="$out/lab$lab-grades.new"
	: >"$gathered"
	# Several hand-ins at once: each grades its boots one at a time (vm/grade/check-lab.sh).
	[ "$jobs" = 1 ] || export BOOT_JOBS=1
	if [ -z "$hosts" ]; then
		parallel --will-cite --jobs "$jobs" --halt never \
			"$top/vm/grade/batch/grade-one.sh" "$lab" '{}' "$rows" '{%}' ::: "${todo[@]}" >>"$gathered" || true
	else
		# Each hand-in goes to the host as WORKDIR/STUDENT.patch (the /./ in its path) and is
		# removed after; the command runs in the repository there.
		remote=${REMOTE_REPO:-$top}
		inputs=()
		for patch in "${todo[@]}"; do inputs+=("$handins/./$(basename "$patch")"); done
		parallel --will-cite --sshloginfile "$hosts" --jobs "$jobs" --halt never --workdir "$remote/build/grade-all-inbox" \
			--transferfile '{}' --cleanup \
			"$remote/vm/grade/batch/grade-one.sh" "$lab" '{}' "$remote/build/grade-all-lab$lab" '{%}' \
			::: "${inputs[@]}" >>"$gathered" || true
	fi
	# Keep each row that came back, with the key it was graded under; a row that is the
	# grader's failure gets no key, so the next run grades that hand-in again.
	while IFS= read -r row; do
		read -r student status < <(python3 -c 'import json, sys; r = json.loads(sys.argv[1]); print(r["student"], r["status"])' "$row" 2>/dev/null) || continue
		[ -f "$handins/$student.patch" ] || continue
		printf '%s\n' "$row" >"$rows/$student.json"
		[ "$status" != grader-error ] || continue
		echo "$(sha1sum <"$handins/$student.patch" | cut -c1-40) $grader" >"$rows/$student.key"
	done <"$gathered"
	rm -f "$gathered"
fi

# A hand-in with no row did not come back from its job (a host that died, a grader that
# crashed): it gets a row that says so, and is graded again next time.
# Exit 3 when a row is the grader's failure (grader-error, not-graded, grader-mismatch).
table_rc=0
VM_DIR="$top/vm" python3 - "$lab" "$top/labs/lab$lab" "$rows" "$out/lab$lab-grades" "$grader" "${patches[@]}" <<'PY' || table_rc=$?
import csv, json, os, sys
sys.dont_write_bytecode = True  # no __pycache__ in the harness: make check fingerprints it
sys.path.insert(0, os.environ["VM_DIR"])
from testsconf import columns
lab, conf, rows, base, grader, *patches = sys.argv[1:]
names, deliverables = columns(conf)
table = []
for patch in patches:
    student = os.path.basename(patch)[:-len(".patch")]
    path = os.path.join(rows, student + ".json")
    try:
        row = json.load(open(path))
    except (OSError, ValueError):
        row = {"student": student, "status": "not-graded", "tests": {}, "total": 0, "max": 0,
               "written": {}, "copy_of_reference": None, "grader": grader,
               "logs": "", "why": "its grading job returned no row (see the jobs' output)"}
    if row.get("grader") != grader:
        row["status"] = "grader-mismatch"
        row["why"] = "graded with commit %s, not %s: that host's repository is not at this commit" % (row.get("grader"), grader)
    table.append(row)
with open(base + ".json", "w") as f:
    json.dump({"lab": int(lab), "grader": grader, "rows": table}, f, indent=1)
    f.write("\n")
with open(base + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["student", "status"] + names + ["total", "max", "challenge"] + ["written:" + d for d in deliverables]
               + ["copy_of_reference", "suspicious", "logs", "why"])
    for row in table:
        copy = row.get("copy_of_reference")
        w.writerow([row["student"], row["status"]] + [row["tests"].get(n, 0) for n in names]
                   + [row["total"], row["max"], row.get("challenge", 0)] + [row.get("written", {}).get(d, 0) for d in deliverables]
                   + ["" if copy is None else ("yes" if copy else "no"), " | ".join(row.get("suspicious", [])),
                      row.get("logs", ""), row.get("why", "")])
grader_errors = 0
for row in table:
    flag = "  COPY OF THE REFERENCE" if row.get("copy_of_reference") else ""
    print("  %-24s %-16s %4d/%d%s" % (row["student"], row["status"], row["total"], row["max"], flag))
    for line in row.get("suspicious", []):
        print("  %-24s   read this: %s" % ("", line))
    if row["status"] in ("grader-error", "not-graded", "grader-mismatch"):
        grader_errors += 1
        print("  %-24s   the grader's fault, not the hand-in's: %s" % ("", row.get("why", "")))
sys.exit(3 if grader_errors else 0)
PY
say "wrote ${out#"$top"/}/lab$lab-grades.csv and .json"
exit "$table_rc"
