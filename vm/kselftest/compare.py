#!/usr/bin/env python3
"""The kernel's own selftests, stock kernel against fibril kernels.

  vm/kselftest/compare.py OUT.tsv STOCK.tsv LABEL=KERNEL.tsv...

Each input is one boot's records (vm/kselftest/boot.sh: a header "name result seconds",
a row a selftest, and the "(kernel log)" row). A selftest that passes on the stock kernel
must pass on every fibril kernel: anything else there (fail, timeout, a signal, not run)
is a difference, and so is a kernel log that is clean on stock and not on the other. A
selftest that does not pass on stock is listed, not counted: this kernel, this machine or
this configuration cannot run it, and a fibril kernel is not to blame.

Writes OUT.tsv (a header, then one row a selftest: its result on each kernel and its
verdict: same, differs, or not-on-stock), prints one line a kernel and the total,
"kselftest: N passed on both, M differ", and exits 1 when any differ.
"""
import csv
import sys


def read(path):
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    if rows and set(rows[0]) != {'name', 'result', 'seconds'}:
        sys.exit('%s: not a vm/kselftest/boot.sh record file' % path)
    return {row['name']: row['result'] for row in rows}


def passed(name, result):
    return result == ('clean' if name == '(kernel log)' else 'pass')


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    out, stock_path, others = sys.argv[1], sys.argv[2], sys.argv[3:]
    stock = read(stock_path)
    kernels = []
    for arg in others:
        label, _, path = arg.partition('=')
        kernels.append((label, read(path)))

    differs = 0
    both = 0
    rows = []
    for name in stock:
        results = [results.get(name, 'not-run') for _, results in kernels]
        if not passed(name, stock[name]):
            verdict = 'not-on-stock'
        elif all(passed(name, r) for r in results):
            verdict = 'same'
            both += 1
        else:
            verdict = 'differs'
            differs += 1
        rows.append([name, stock[name], *results, verdict])

    with open(out, 'w', newline='') as f:
        w = csv.writer(f, delimiter='\t', lineterminator='\n')
        w.writerow(['name', 'stock', *[label for label, _ in kernels], 'verdict'])
        w.writerows(rows)

    for i, (label, _) in enumerate(kernels):
        bad = [r[0] + ' (' + r[2 + i] + ')' for r in rows
               if r[-1] == 'differs' and not passed(r[0], r[2 + i])]
        print('  %s: %d of the %d that pass on stock pass here%s' % (
            label, sum(1 for r in rows if r[-1] != 'not-on-stock') - len(bad),
            sum(1 for r in rows if r[-1] != 'not-on-stock'),
            ('; differ: ' + ', '.join(bad)) if bad else ''))
    not_on_stock = [r[0] + ' (' + r[1] + ')' for r in rows if r[-1] == 'not-on-stock']
    if not_on_stock:
        print('  not passing on stock, listed only: ' + ', '.join(not_on_stock))
    print('kselftest: %d passed on both, %d differ (%s)' % (both, differs, out))
    return 1 if differs else 0


if __name__ == '__main__':
    sys.exit(main())
