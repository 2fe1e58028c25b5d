#!/usr/bin/env bash
# make hint LAB=n EX=k: the next hint of exercise k of lab n, one at a time.
#   vm/grade/hint.sh LAB EX     print hint i+1 of labs/labLAB/hints/exEX.md (EX=challenge:
#                               challenge.md), where i hints were shown before
#   vm/grade/hint.sh LAB        how many hints each exercise of the lab has, and how
#                               many you have taken
#   vm/grade/hint.sh --taken LAB  one line for make grade: the hints taken so far
# A hints file is Markdown, one "## Hint N" section a hint, the handout says how many.
# What was shown is counted in build/hints/labLAB-EX (yours: make grade reports it to
# you, and nothing grades it). Once all are shown, the last is shown again.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

taken_only=0
if [ "${1:-}" = --taken ]; then taken_only=1; shift; fi
lab=${1:?usage: make hint LAB=n EX=k} ex=${2:-}
dir="$top/labs/lab$lab/hints"
[ -d "$top/labs/lab$lab" ] || die "LAB=$lab: there is no labs/lab$lab"
state="$BUILD/hints"

# file EX: the hints file of exercise EX
file() { if [ "$1" = challenge ]; then echo "$dir/challenge.md"; else echo "$dir/ex$1.md"; fi; }
# count FILE: how many hints it holds
count() { grep -c '^## Hint [0-9]*$' "$1"; }
# shown EX: how many of its hints were shown
shown() { cat "$state/lab$lab-$1" 2>/dev/null || echo 0; }

if [ -z "$ex" ]; then
	shopt -s nullglob
	files=("$dir"/ex*.md "$dir"/challenge.md)
	line=""
	for f in "${files[@]}"; do
		e=$(basename "$f" .md)
		e=${e#ex}
		line="${line:+$line, }EX=$e $(shown "$e") of $(count "$f")"
	done
	if [ "$taken_only" = 1 ]; then
		[ -z "$line" ] || echo "Hints taken (for you; not graded): $line"
		exit 0
	fi
	[ -n "$line" ] || { echo "lab $lab has no hints"; exit 0; }
	echo "lab $lab's hints, shown so far: $line (make hint LAB=$lab EX=k shows the next)"
	exit 0
fi
f=$(file "$ex")
[ -f "$f" ] || die "lab $lab has no hints for EX=$ex (make hint LAB=$lab lists what it has)"
n=$(count "$f")
i=$(($(shown "$ex") + 1))
if [ "$i" -gt "$n" ]; then
	i=$n
	echo "(all $n hints of exercise $ex of lab $lab are shown; here is the last again)"
fi
mkdir -p "$state"
echo "$i" >"$state/lab$lab-$ex"
echo "Lab $lab, exercise $ex: hint $i of $n"
echo
awk -v want="$i" '/^## Hint [0-9]+$/ { on = ($3 == want); next } on' "$f" | sed -e '/./,$!d'
