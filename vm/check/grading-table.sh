#!/usr/bin/env bash
# vm/check/grading-table.sh LAB: print lab LAB's grading table, in Markdown, from its
# tests.conf. Each handout carries this table between the markers below, and
# vm/check/handout-tables.sh (run by make check) fails when a handout's copy differs
# or when the total is not what make check printed for the solved tree.
# The rule: a test, an exercise, a panic test or a host check counts once per boot
# (tests.conf's smp line: -smp 1 and -smp 2 are two boots); a GDB walkthrough runs once.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=${1:?usage: $0 LAB}
records=$("$top/vm/testsconf.py" "$top/labs/lab$lab") || die "lab $lab's tests.conf cannot be trusted (above)"

awk -v lab="$lab" '
	function add(part, name, pts) { list[part] = list[part] (list[part] == "" ? "" : ", ") "`" name "` " pts; sum[part] += pts }
	$1 == "smp" {
		boots = NF - 1
		for (i = 2; i <= NF; i++) {
			b = $i
			if (b ~ /\+/) { split(b, part, "+"); b = part[1] ", " part[2] " mode"; modes = 1 }
			smps = smps (i == 2 ? "" : (modes ? "; " : " and ")) b
		}
		next
	}
	$1 == "test" { add("test", $2, $3); next }
	$1 == "exercise" { add("exercise", $2, $3); next }
	$1 == "host" && $4 == "exercise" { add("exercise", $2 " (host check)", $3); next }
	$1 == "panic" && $4 == "exercise" { add("exercise", $2 " (a boot that must panic)", $3); next }
	$1 == "panic" { add("test", $2 " (a boot that must panic)", $3); next }
	$1 == "host" { add("host", $2, $3); next }
	$1 == "gdb" { add("gdb", $2, $3); next }
	END {
		print "<!-- grading table: written by vm/check/grading-table.sh " lab " from tests.conf; make check compares -->"
		if (modes)
			printf "Each test, exercise, panic test and host check counts once per boot: the lab boots %d times (-smp %s)", boots, smps
		else
			printf "Each test, exercise, panic test and host check counts once per boot: the lab boots with -smp %s", smps
		printf "%s\n", (boots == 1 ? "." : ", so its points count " boots " times. A GDB walkthrough runs once.")
		print ""
		print "| part | what, with its points per boot | points |"
		print "|---|---|---|"
		split("test exercise host gdb", order, " ")
		title["test"] = "tests that must keep passing"
		title["exercise"] = "exercises (each must fail on the start tree)"
		title["host"] = "host checks"
		title["gdb"] = "GDB walkthroughs (once, solved tree)"
		for (k = 1; k <= 4; k++) {
			p = order[k]
			if (list[p] == "") continue
			n = (p == "gdb" ? 1 : boots)
			pts = n * sum[p]
			total += pts
			printf "| %s | %s | %s |\n", title[p], list[p], (n == 1 ? pts : n " x " sum[p] " = " pts)
		}
		printf "| **make check, solved tree** | | **%d** |\n", total
		print "<!-- end grading table -->"
	}' <<<"$records"
