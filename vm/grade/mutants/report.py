#!/usr/bin/env python3
"""The mutation score of each exercise, from make mutants' rows.

  vm/grade/mutants/report.py MUTANTS.tsv EXERCISES.tsv EQUIVALENT.tsv

MUTANTS.tsv: results/labN-mutants.tsv (vm/grade/mutants/mutants.sh). EXERCISES.tsv:
exercise, commit, subject (vm/grade/mutants/mutate.py). EQUIVALENT.tsv (may be missing):
key, reason: survivors that behave as the reference does, which no test can reject.

Prints Markdown: per exercise the mechanical mutants killed, survived, equivalent, not
compiling and the score (killed / (killed + survived), the equivalent ones left out);
the hand-written wrong answers killed; then each survivor's change.
"""
import csv
import sys
from collections import defaultdict
from pathlib import Path

GOAL = 90


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    mutants, exercises = rows(sys.argv[1]), rows(sys.argv[2])
    equivalent = {}
    if Path(sys.argv[3]).exists():
        equivalent = {r['key']: r['reason'] for r in rows(sys.argv[3])}
    counts = defaultdict(lambda: defaultdict(int))
    survivors, wrong_survivors, other = [], [], []
    for m in mutants:
        k, v = m['exercise'], m['verdict']
        kind = 'wrong' if m['operator'] == 'wrong-answer' else 'mechanical'
        if v == 'survived' and m['key'] in equivalent:
            v = 'equivalent'
        counts[k][kind + ':' + v] += 1
        if v == 'survived':
            (wrong_survivors if kind == 'wrong' else survivors).append(m)
        elif v not in ('killed', 'equivalent', 'not-compiling'):
            other.append(m)
    print('| exercise | mechanical: killed | survived | equivalent | not compiling | score | wrong answers killed |')
    print('|---|---|---|---|---|---|---|')
    below = 0
    for e in exercises:
        if e['exercise'] not in counts:
            continue  # not asked for (make mutants EXERCISE=k)
        c = counts[e['exercise']]
        killed, survived = c['mechanical:killed'], c['mechanical:survived']
        graded = killed + survived
        score = '%d%%' % round(100 * killed / graded) if graded else '-'
        if graded and 100 * killed < GOAL * graded:
            below += 1
        wrong_total = sum(n for key, n in c.items() if key.startswith('wrong:'))
        print('| %s. %s | %d | %d | %d | %d | %s | %d of %d |' % (
            e['exercise'], e['subject'], killed, survived, c['mechanical:equivalent'],
            c['mechanical:not-compiling'], score, c['wrong:killed'], wrong_total))
    if survivors or wrong_survivors:
        print('\n## Survivors: wrong versions every test passed\n')
        for m in wrong_survivors + survivors:
            print('- %s (exercise %s, %s, %s:%s, key %s): `%s` -> `%s` (%s)' % (
                m['id'], m['exercise'], m['operator'], m['file'], m['line'], m['key'],
                m['original'], m['mutated'], m['patch']))
    if other:
        print('\n## Not graded (the grader could not say)\n')
        for m in other:
            print('- %s: %s (%s)' % (m['id'], m['verdict'], m['killed_by']))
    equivalent_here = [m for m in mutants if m['key'] in equivalent and m['verdict'] == 'survived']
    if equivalent_here:
        print('\n## Equivalent: survivors that behave as the reference does\n')
        for m in equivalent_here:
            print('- %s `%s` -> `%s`: %s' % (m['id'], m['original'], m['mutated'], equivalent[m['key']]))
    print('\nGoal: every exercise kills at least %d%% of its compiling mechanical mutants and every '
          'wrong answer; %s.' % (GOAL, 'met' if not below and not wrong_survivors else 'not met'))


if __name__ == '__main__':
    main()
