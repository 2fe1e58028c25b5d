#!/usr/bin/env python3
"""What in a hand-in touches the grader's world, for a person to read.

  vm/grade/batch/suspicious.py PATCH LABS_DIR [REFERENCE.patch...]

Prints one JSON list: "file:line: what (the added text)" for each line the hand-in adds
that names something only the grader should care about. A hand-in's kernel runs the
tests, so it could tell them apart and change what they see; none of this is proof of
that, and a fix may have good reason to touch `comm` or an exit code: it is a list to
read, not a verdict. A line the reference solution (REFERENCE) adds too is not listed.
"""
import json
import re
import sys
from pathlib import Path

PLAIN = [
    (r'\bcomm\b|get_task_comm|__get_task_comm', 'the program name (comm)'),
    (r'saved_command_line|boot_command_line|\blab\.\w+|\bnonce\b|LABTEST', 'the boot\'s command line or nonce'),
    (r'\b0xf4\b|isa.debug.exit|outb\s*\(', 'the debug-exit port that ends the guest'),
    (r'exit_code|group_exit_code|\bxcode\b|do_group_exit', 'an exit status'),
    (r'labtest|"\s*(PASS|FAIL|ok|not ok)\b|/tests/', 'the tests\' output or files'),
    (r'\bvfs_write\b|\bksys_write\b|copy_from_user\s*\(\s*\w*buf', 'what a program writes'),
]


def test_names(labs):
    names = set()
    for conf in Path(labs).glob('lab*/tests.conf'):
        for line in conf.read_text().splitlines():
            f = line.split()
            if len(f) >= 2 and f[0] in ('test', 'exercise', 'panic', 'host'):
                names.add(f[1])
    return names


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    reference = set()
    for ref in sys.argv[3:]:
        reference |= {x[1:].strip() for x in Path(ref).read_text(errors='replace').splitlines()
                      if x.startswith('+') and not x.startswith('+++')}
    patterns = [(re.compile(p), why) for p, why in PLAIN]
    names = test_names(sys.argv[2])
    if names:
        prefixes = sorted({n.split('_')[0] + '_' for n in names} | names, key=len, reverse=True)
        patterns.append((re.compile(r'"(%s)"' % '|'.join(map(re.escape, prefixes))), 'a test\'s name'))
    found, path, line_no = [], None, 0
    for line in Path(sys.argv[1]).read_text(errors='replace').splitlines():
        if line.startswith('+++ '):
            path = line[6:] if line.startswith('+++ b/') else None
        elif line.startswith('@@'):
            m = re.match(r'@@ -\d+(?:,\d+)? \+(\d+)', line)
            line_no = int(m.group(1)) if m else 0
        elif path and line.startswith('+'):
            text = line[1:]
            code = re.sub(r'/\*.*?\*/|//.*$', '', text)
            for pattern, why in patterns if text.strip() not in reference else []:
                if pattern.search(code):
                    found.append('%s:%d: %s (%s)' % (path, line_no, why, text.strip()[:80]))
                    break
            line_no += 1
        elif path and line.startswith(' '):
            line_no += 1
    print(json.dumps(found))


if __name__ == '__main__':
    main()
