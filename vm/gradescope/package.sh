#!/usr/bin/env bash
# make gradescope LAB=n: build/gradescope/labN-autograder.zip, a Gradescope autograder
# for lab n. At the zip's root (Gradescope unpacks it into /autograder/source):
#   setup.sh, run_autograder   vm/gradescope/autograder/ (each says what it does)
#   README.md                  the Gradescope settings it needs
#   LAB                        the lab it grades
#   primer.patch               a hand-in that changes no kernel file (setup.sh builds it
#                              once, so that hand-ins build incrementally)
#   fibrils/                   this repository at its last commit as make release
#                              SOLVED=n makes it (no solution of lab n or later, no wrong
#                              answers), plus lab n's hidden challenge tests, committed
#                              on top: the zip is the instructor's, never a student's
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:?usage: make gradescope LAB=n} out=${2:-$BUILD/gradescope}
[ -f "$top/labs/lab$lab/tests.conf" ] || die "LAB=$lab: there is no labs/lab$lab/tests.conf"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

"$top/vm/release/release.sh" "$stage/fibrils" "$lab" >&2
if [ -d "$top/labs/lab$lab/challenge" ]; then
	git -C "$top" archive HEAD "labs/lab$lab/challenge" | tar -x -C "$stage/fibrils"
	git -C "$stage/fibrils" add "labs/lab$lab/challenge"
	git -C "$stage/fibrils" -c user.name="fibrils lab" -c user.email="lab@fibrils.invalid" \
		commit -q -m "Autograder: lab $lab's hidden challenge tests (the instructor's: never in a student edition)"
fi
cp "$top/vm/gradescope/autograder/setup.sh" "$top/vm/gradescope/autograder/run_autograder" "$stage/"
echo "$lab" >"$stage/LAB"

# The primer: a hand-in of one new file under handin/, made by git so that it applies
# as a student's does.
primer=$(mktemp -d)
git -C "$primer" init -q
mkdir -p "$primer/handin"
echo "The autograder's setup built this hand-in to fill the hand-in build folder." >"$primer/handin/autograder-setup.txt"
git -C "$primer" add handin
git -C "$primer" -c user.name=autograder -c user.email=autograder@fibrils.invalid commit -q -m "autograder: fill the hand-in build folder"
git -C "$primer" format-patch -q --root --stdout HEAD >"$stage/primer.patch"
rm -rf "$primer"

commit=$(git -C "$top" rev-parse --short HEAD)
points=$("$top/vm/testsconf.py" "$top/labs/lab$lab" max-points)
sed -e "s/@LAB@/$lab/g" -e "s/@COMMIT@/$commit/g" -e "s/@POINTS@/$points/g" \
	"$top/vm/gradescope/autograder/README.md" >"$stage/README.md"

zip="$out/lab$lab-autograder.zip"
rm -f "$zip"
# Python's zipfile keeps each file's mode (run_autograder must stay executable).
python3 - "$stage" "$zip" <<'PY'
import os, sys, zipfile
stage, zip_path = sys.argv[1:]
with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
    for folder, dirs, files in os.walk(stage):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            info = zipfile.ZipInfo.from_file(path, os.path.relpath(path, stage))
            with open(path, "rb") as f:
                z.writestr(info, f.read(), zipfile.ZIP_DEFLATED)
PY
say "wrote ${zip#"$top"/}: lab $lab's autograder, instructor commit $commit ($(du -k "$zip" | cut -f1) KB)"
