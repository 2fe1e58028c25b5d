"""Drop the solution sections of labs >= K from Markdown files, in place.

    python3 strip-solutions.py K FILE...

A section is the lines from "<!-- solution: lab N -->" to "<!-- end solution -->";
for N >= K it becomes one line that says the solution comes once the lab is due.
A marker without its end, or nested markers, is an error: a section that does not
end would take the rest of the file with it, or leave a solution in.
"""
import re
import sys

START = re.compile(r"^<!-- solution: lab (\d+) -->$")
END = "<!-- end solution -->"


def strip(path, k):
    out, inside, keep = [], None, True
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        bare = line.rstrip("\n")
        match = START.match(bare)
        if match:
            if inside is not None:
                sys.exit("%s:%d: a solution section inside another" % (path, number))
            inside = int(match.group(1))
            keep = inside < k
            if not keep:
                out.append("*(Lab %d's reference solution goes here once the lab is due.)*\n" % inside)
            continue
        if bare == END:
            if inside is None:
                sys.exit("%s:%d: an end of a solution section that did not start" % (path, number))
            inside, keep = None, True
            continue
        if keep:
            out.append(line)
    if inside is not None:
        sys.exit("%s: the solution section of lab %d does not end" % (path, inside))
    open(path, "w", encoding="utf-8").writelines(out)


k = int(sys.argv[1])
for name in sys.argv[2:]:
    strip(name, k)
