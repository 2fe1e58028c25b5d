#!/usr/bin/env python3
"""Small wrong versions of a lab's reference solution, each a hand-in the grader takes.

  vm/grade/mutants/mutate.py SRC START REF OUTDIR [EXERCISE]

SRC is the kernel git repository (build/src), START the commit of the lab's start tree,
REF the commit of its reference solution (the solved tree without the challenge answer).
Each commit START..REF is one exercise, numbered from 1 in order (its subject names it).

A mutant is the whole reference solution with one small mistake in one line that the
solution adds, made the way students make them:
  delete      a statement left out (a missing check, a missing put, a missing unlock)
  negate      an if/while condition turned around
  operator    one comparison or logical operator changed (== !=, < <=, > >=, && ||)
  constant    one number off by one, or 0
  return-0    a return value replaced by 0 (an error path that reports success)
  swap        two statements in the wrong order
  current     the current task where the code names another (task, tsk, p, target),
              unless the file sets that name from current (tsk = current): the same task
OUTDIR gets NNN.patch (git am form, one commit on START) and mutants.tsv, a header line
then one row a mutant: id exercise operator file line key original mutated. key is a
hash of the operator and the line's text before and after, not of its place: a mutant
keeps its key when lines above it move (labs/labN/wrong/equivalent.tsv names survivors
that are really equivalent by that key).
"""
import hashlib
import re
import subprocess
import sys
from pathlib import Path

TYPE_WORDS = re.compile(
    r'^\s*(static\s+|const\s+|unsigned\s+|signed\s+|struct\s+\w+\s*\*?|enum\s+\w+|union\s+\w+|'
    r'int|long|short|char|bool|void|size_t|ssize_t|loff_t|pid_t|u8|u16|u32|u64|s32|s64|'
    r'__u32|__u64|atomic_t|refcount_t|spinlock_t|unsigned)\b')
TASK_NAMES = ('task', 'tsk', 'p', 'target', 't')
OPERATOR_SWAPS = [('==', '!='), ('!=', '=='), ('<=', '<'), ('>=', '>'), ('&&', '||'), ('||', '&&'),
                  ('<', '<='), ('>', '>=')]


def git(src, *args):
    return subprocess.run(['git', '-C', src, *args], check=True, capture_output=True, text=True).stdout


def masked(line):
    """The line with string and char literals and comments blanked: operators are found in code."""
    out, i, quote = [], 0, None
    while i < len(line):
        c = line[i]
        if quote:
            out.append(' ' if c != quote else c)
            if c == '\\' and i + 1 < len(line):
                out.append(' ')
                i += 1
            elif c == quote:
                quote = None
        elif c in '"\'':
            quote = c
            out.append(c)
        elif line.startswith('/*', i) or line.startswith('//', i):
            out.append(' ' * (len(line) - i))
            break
        else:
            out.append(c)
        i += 1
    return ''.join(out)


def is_code(line):
    s = line.strip()
    if not s or s in ('{', '}', '};', '} else {', 'else', 'else {'):
        return False
    return not (s.startswith(('/*', '*', '//', '#')) or s.endswith('*/'))


def balanced(text):
    return text.count('(') == text.count(')')


def is_statement(line):
    """A whole statement on one line, not a declaration: it can be left out and still compile."""
    s = masked(line).strip()
    return (s.endswith(';') and balanced(s) and not TYPE_WORDS.match(s)
            and not s.startswith(('case ', 'default')) and '=' != s[:1])


def condition_span(code):
    """(start, end) of the parenthesised condition of a one-line if/while, or None."""
    m = re.match(r'(\s*(?:\}\s*else\s+)?(?:if|while)\s*)\(', code)
    if not m:
        return None
    depth = 0
    for i in range(m.end() - 1, len(code)):
        if code[i] == '(':
            depth += 1
        elif code[i] == ')':
            depth -= 1
            if depth == 0:
                return m.end(), i
    return None


def line_mutants(line, is_current=()):
    """(operator, mutated line) pairs for one added line; None as the line: delete it.
    is_current: names the file sets from current (tsk = current): no "current" mutant
    for them, which would be the same task."""
    if not is_code(line):
        return []
    code = masked(line)
    found = []
    if is_statement(line):
        found.append(('delete', None))
        m = re.match(r'(\s*return\s+)(.+);\s*$', code)
        if m and m.group(2).strip() not in ('0', 'NULL', 'false'):
            found.append(('return-0', line[:m.start(2)] + '0;'))
    span = condition_span(code)
    if span and code.rstrip().endswith((')', '{')):
        if code.rstrip().endswith(')') and not code.lstrip().startswith('}'):
            found.append(('delete', None))  # the condition gone: its body always runs
        a, b = span
        found.append(('negate', line[:a] + '!(' + line[a:b] + ')' + line[b:]))
    for old, new in OPERATOR_SWAPS:
        pat = {'<': r'(?<![<-])<(?![<=])', '>': r'(?<![>-])>(?![>=])'}.get(old, re.escape(old))
        m = re.search(pat, code)
        if m and not (old in '<>' and '#include' in code):
            found.append(('operator', line[:m.start()] + new + line[m.end():]))
            break
    m = re.search(r'(?<![\w.])(\d+)(?![\w.])', code)
    if m:
        n = int(m.group(1))
        for v in sorted({n + 1, 0} - {n}):
            found.append(('constant', line[:m.start()] + str(v) + line[m.end():]))
    if 'current' not in code and not TYPE_WORDS.match(code):
        for name in (n for n in TASK_NAMES if n not in is_current):
            m = re.search(r'(?<![\w.>])%s(?=\s*(->|[,)]))' % name, code)
            if m:
                found.append(('current', re.sub(r'(?<![\w.>])%s(?=\s*(->|[,)]))' % name, 'current', line)))
                break
    return found


def parse_diff(text):
    """{file: [(new line number, text, position in diff lines)]} of the added lines."""
    added, lines, path, new_no = {}, text.split('\n'), None, 0
    for i, line in enumerate(lines):
        if line.startswith('+++ '):
            path = line[6:] if line.startswith('+++ b/') else None
        elif line.startswith('@@'):
            new_no = int(re.match(r'@@ -\d+(?:,\d+)? \+(\d+)', line).group(1))
        elif path and line.startswith('+'):
            added.setdefault(path, []).append((new_no, line[1:], i))
            new_no += 1
        elif path and line.startswith(' '):
            new_no += 1
    return added, lines


def hunk_of(lines, pos):
    """Index of the @@ line of the hunk that holds diff line pos."""
    while not lines[pos].startswith('@@'):
        pos -= 1
    return pos


def shrink_hunk(header):
    m = re.match(r'@@ -(\d+(?:,\d+)?) \+(\d+),(\d+) @@(.*)', header)
    return '@@ -%s +%s,%d @@%s' % (m.group(1), m.group(2), int(m.group(3)) - 1, m.group(4))


def blame(src, ref, path):
    """{line number: commit} of path at ref."""
    owners, no = {}, None
    for line in git(src, 'blame', '--porcelain', ref, '--', path).split('\n'):
        m = re.match(r'([0-9a-f]{40}) \d+ (\d+)', line)
        if m:
            owners[int(m.group(2))] = m.group(1)
    return owners


def without_empty_files(lines):
    """The diff without the files whose last hunk a mutant removed."""
    out, block = [], []
    for line in lines + ['diff --git END']:
        if line.startswith('diff --git '):
            if not block or block[0][:10] != 'diff --git' or any(x.startswith('@@') for x in block):
                out.extend(block)
            block = []
        block.append(line)
    return out


def mbox(subject, body, diff):
    return ('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
            'From: make mutants <mutants@fibrils.invalid>\n'
            'Date: Thu, 1 Jan 2026 00:00:00 +0000\n'
            'Subject: [PATCH] %s\n\n%s\n---\n%s' % (subject, body, diff))


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    src, start, ref, outdir = sys.argv[1:5]
    only = sys.argv[5] if len(sys.argv) == 6 else ''
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    exercises = git(src, 'rev-list', '--reverse', '%s..%s' % (start, ref)).split()
    number = {c: i + 1 for i, c in enumerate(exercises)}
    diff = git(src, 'diff', '-U3', '--no-renames', start, ref)
    added, lines = parse_diff(diff)
    rows, n = [], 0
    for path, items in sorted(added.items()):
        owners = blame(src, ref, path)
        is_current = set(re.findall(r'\*\s*(\w+)\s*=\s*current\s*;', git(src, 'show', '%s:%s' % (ref, path))))
        for k, (line_no, text, pos) in enumerate(items):
            exercise = number.get(owners.get(line_no), 0)
            if not exercise or (only and str(exercise) != only):
                continue
            candidates = line_mutants(text, is_current)
            nxt = items[k + 1] if k + 1 < len(items) else None
            if (nxt and nxt[2] == pos + 1 and is_statement(text) and is_statement(nxt[1])
                    and text.strip() != nxt[1].strip()):
                candidates.append(('swap', (nxt[1], text)))
            for op, mutated in candidates:
                new = list(lines)
                if mutated is None:
                    h = hunk_of(new, pos)
                    new[h] = shrink_hunk(new[h])
                    del new[pos]
                    end = h + 1
                    while end < len(new) and new[end][:1] in (' ', '+', '-', '\\'):
                        end += 1
                    if not any(x[:1] in '+-' for x in new[h + 1:end]):
                        del new[h:end]  # the hunk's one change: no hunk (git apply refuses an empty one)
                    after = '(left out)'
                elif op == 'swap':
                    new[pos], new[pos + 1] = '+' + mutated[0], '+' + mutated[1]
                    after = mutated[0].strip() + ' / ' + mutated[1].strip()
                else:
                    new[pos] = '+' + mutated
                    after = mutated.strip()
                n += 1
                key = hashlib.sha1(('%s\n%s\n%s' % (op, text.strip(), after)).encode()).hexdigest()[:12]
                subject = 'mutant %03d: exercise %d: %s at %s:%d' % (n, exercise, op, path, line_no)
                body = 'The reference solution with one change (make mutants).\n\n- %s\n+ %s\n' % (
                    text.strip(), after)
                diff_text = '\n'.join(without_empty_files(new))
                (out / ('%03d.patch' % n)).write_text(mbox(subject, body, diff_text))
                rows.append((n, exercise, op, path, line_no, key, text.strip(), after))
    with open(out / 'mutants.tsv', 'w') as f:
        f.write('id\texercise\toperator\tfile\tline\tkey\toriginal\tmutated\n')
        for r in rows:
            f.write('\t'.join(str(x).replace('\t', ' ') for x in r) + '\n')
    with open(out / 'exercises.tsv', 'w') as f:
        f.write('exercise\tcommit\tsubject\n')
        for c in exercises:
            f.write('%d\t%s\t%s\n' % (number[c], c, git(src, 'log', '-1', '--format=%s', c).strip()))
    print('%d mutants of %d exercise(s) in %s' % (n, len(exercises), outdir))


if __name__ == '__main__':
    main()
