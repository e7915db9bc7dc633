#!/usr/bin/env python3
"""AUC of the learned judge (judge.bin) against the printable verdicts of the judged sheets.

  python3 docs/judged/2026-12-06/judge_auc.py [--cli build/app/cli/couplet] [--model DIR]

Reads sheet A (before/labels.tsv: judges 1 and 2), sheet B (after/key.json with
after/verdicts-judge3.md and -judge4.md) and the author-judged sessions 17-18
(docs/judged/session17.md, session18.md); scores every couplet once with
`couplet train-judge --score`; prints, per sheet and judge, the probability that a
printable couplet scores above one that is not, over all rows and over the
model's outputs only (no controls).
"""
import argparse, json, os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, '..', '..', '..'))


def verdicts_md(path):
    """id -> printable, from the couplet table of a verdicts file (the first table only)."""
    out = {}
    for line in open(path, encoding='utf-8'):
        m = re.match(r'\|\s*(\d+)\s*\|\s*([✓✗])\s*\|', line)
        if m:
            i = int(m.group(1))
            if i in out:
                break  # the 横批 table starts again at 1
            out[i] = m.group(2) == '✓'
        elif '横批' in line and out:
            break
    return out


def sheet_a():
    rows = []
    for line in open(os.path.join(here, 'before', 'labels.tsv'), encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        rows.append({'upper': f[3], 'lower': f[4], 'control': f[0] == 'control',
                     'judge 1': f[6] == '✓', 'judge 2': f[7] == '✓'})
    return rows


def sheet_b():
    key = json.load(open(os.path.join(here, 'after', 'key.json'), encoding='utf-8'))
    v3 = verdicts_md(os.path.join(here, 'after', 'verdicts-judge3.md'))
    v4 = verdicts_md(os.path.join(here, 'after', 'verdicts-judge4.md'))
    rows = []
    for i, k in enumerate(key, 1):
        if i in v3 and i in v4:
            rows.append({'upper': k['upper'], 'lower': k['lower'], 'control': k['source'] == 'control',
                         'judge 3': v3[i], 'judge 4': v4[i]})
    return rows


def sessions():
    rows = []
    for name in ('session17.md', 'session18.md'):
        for line in open(os.path.join(root, 'docs', 'judged', name), encoding='utf-8'):
            cells = [c.strip() for c in line.split('|')[1:-1]]
            if len(cells) < 5 or not cells[0][:1].isdigit():
                continue
            for i in range(3, len(cells) - 1):
                parts = cells[i].split(' / ')
                if len(parts) >= 3 and cells[i + 1] in ('✓', '✗'):
                    rows.append({'upper': parts[0], 'lower': parts[1], 'control': False, 'author': cells[i + 1] == '✓'})
    return rows


def auc(pos, neg):
    if not pos or not neg:
        return float('nan')
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cli', default=os.path.join(root, 'build', 'app', 'cli', 'couplet'))
    ap.add_argument('--model', default=os.path.join(root, 'resources', 'models', 'default'))
    a = ap.parse_args()
    sheets = {'sheet A (before)': sheet_a(), 'sheet B (before + after)': sheet_b(), 'sessions 17-18 (author)': sessions()}
    pairs = sorted({(r['upper'], r['lower']) for rows in sheets.values() for r in rows})
    with tempfile.NamedTemporaryFile('w', suffix='.tsv', delete=False, encoding='utf-8') as f:
        for u, l in pairs:
            f.write(f'{u}\t{l}\n')
    out = subprocess.run([a.cli, 'train-judge', '--score', f.name, '--model', a.model, '--threads', '2'],
                         capture_output=True, text=True)
    os.unlink(f.name)
    if out.returncode != 0:
        sys.exit(out.stderr)
    score = {}
    for line in out.stdout.splitlines():
        s, u, l = line.split('\t')[:3]
        score[(u, l)] = float(s)
    print('| sheet | judge | rows | printable | AUC, all rows | AUC, model outputs only |')
    print('|---|---|---:|---:|---:|---:|')
    for name, rows in sheets.items():
        for judge in [k for k in rows[0] if k not in ('upper', 'lower', 'control')]:
            def split(rs):
                return ([score[(r['upper'], r['lower'])] for r in rs if r[judge]],
                        [score[(r['upper'], r['lower'])] for r in rs if not r[judge]])
            ours = [r for r in rows if not r['control']]
            printable = sum(r[judge] for r in rows)
            print(f'| {name} | {judge} | {len(rows)} | {printable} | {auc(*split(rows)):.3f} | {auc(*split(ours)):.3f} |')


if __name__ == '__main__':
    main()
