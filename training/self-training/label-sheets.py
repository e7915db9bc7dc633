#!/usr/bin/env python3
"""Label sheets for a self-training round: the model's outputs on sheets of 300 for blind helper judges,
and their verdicts collected into a verdict file.

usage:
  label-sheets.py make OUTDIR FIRST SEED GEN.json... [--exclude VERDICTS.tsv...] [--per-sheet 300]
      GEN.json: `couplet eval --prompts P --json GEN.json` with the prompt file's group column holding the
      mode (keywords | acrostic | upper). Writes OUTDIR/sFIRST/sheet.md, OUTDIR/s(FIRST+1)/sheet.md, ...
      and OUTDIR/key.tsv. Outputs judged before (in an --exclude file) and repeats are left out; the
      rest is shuffled with SEED.
  label-sheets.py collect OUTDIR OUT.tsv
      Reads OUTDIR/s*/verdicts.md (| id | verdict | reason |, verdict ✓ or ✗) and writes the verdict rows
      "1 or 0<TAB>上联<TAB>下联<TAB>request<TAB>sheet-row<TAB>reason". A sheet whose verdicts miss a row,
      or hold one twice, is reported by file and row and stops the collection.
"""
import glob
import json
import os
import random
import re
import sys


def request_text(mode, prompt, length, upper):
    if mode == 'keywords':
        return f'关键词 {prompt}，{length}字'
    if mode == 'acrostic':
        return f'藏头 {prompt}（上联首字{prompt[0]}，下联首字{prompt[1]}），{length}字'
    if mode == 'upper':
        return f'给定上联 {upper}，写下联，{len(upper)}字'
    raise SystemExit(f'mode "{mode}": the prompt file\'s group column must be keywords, acrostic or upper')


def read_judged(paths):
    judged = set()
    for path in paths:
        with open(path, encoding='utf-8') as f:
            for line in f:
                if line.startswith('#'):
                    continue
                p = line.rstrip('\n').split('\t')
                if len(p) >= 4:
                    judged.add((p[3], p[1], p[2]))
    return judged


def make(argv):
    per_sheet, excludes, rest = 300, [], []
    it = iter(argv)
    mode = None
    for a in it:
        if a == '--per-sheet':
            per_sheet = int(next(it))
        elif a == '--exclude':
            mode = 'exclude'
        elif mode == 'exclude':
            excludes.append(a)
        else:
            rest.append(a)
    if len(rest) < 4:
        sys.exit(__doc__)
    outdir, first, seed, gens = rest[0], int(rest[1]), int(rest[2]), rest[3:]
    judged = read_judged(excludes)
    rows, seen = [], set()
    for path in gens:
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
        outputs = data['outputs'] if isinstance(data, dict) else data
        for o in outputs:
            if not o.get('upper') or not o.get('lower'):
                continue
            req = request_text(o['group'], o['prompt'], o['length'], o['upper'])
            key = (req, o['upper'], o['lower'])
            if key in judged or key in seen:
                continue
            seen.add(key)
            rows.append(key)
    random.Random(seed).shuffle(rows)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'key.tsv'), 'w', encoding='utf-8') as key:
        key.write('# sheet-row\trequest\t上联\t下联\n')
        for start in range(0, len(rows), per_sheet):
            name = f's{first + start // per_sheet}'
            os.makedirs(os.path.join(outdir, name), exist_ok=True)
            with open(os.path.join(outdir, name, 'sheet.md'), 'w', encoding='utf-8') as sheet:
                sheet.write(f'# Sheet {name}: couplets to judge (no 横批 sheet this time)\n\n'
                            '| id | request | 上联 | 下联 |\n|---|---|---|---|\n')
                for i, (req, up, low) in enumerate(rows[start:start + per_sheet], 1):
                    sheet.write(f'| {i} | {req} | {up} | {low} |\n')
                    key.write(f'{name}-{i}\t{req}\t{up}\t{low}\n')
    print(f'{len(rows)} outputs on {(len(rows) + per_sheet - 1) // per_sheet} sheets '
          f'(s{first}-s{first + (len(rows) - 1) // per_sheet}); {len(judged)} judged before', file=sys.stderr)


VERDICT = re.compile(r'^\|\s*(\d+)\s*\|\s*([✓✗])\s*\|\s*(.*?)\s*\|\s*$')


def collect(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    outdir, out = argv
    key = {}
    with open(os.path.join(outdir, 'key.tsv'), encoding='utf-8') as f:
        for line in f:
            if not line.startswith('#'):
                p = line.rstrip('\n').split('\t')
                key[p[0]] = p[1:]
    sheets = {}
    for k in key:
        sheets.setdefault(k.split('-')[0], []).append(k)
    rows, printable = [], 0
    for name in sorted(sheets, key=lambda s: int(s[1:])):
        path = os.path.join(outdir, name, 'verdicts.md')
        if not os.path.exists(path):
            sys.exit(f'{path}: no verdicts')
        got = {}
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                m = VERDICT.match(line.strip())
                if not m:
                    continue
                row = f'{name}-{m.group(1)}'
                if row in got:
                    sys.exit(f'{path}:{number}: row {m.group(1)} judged twice')
                got[row] = (m.group(2) == '✓', m.group(3).replace('\t', ' '))
        missing = [r for r in sheets[name] if r not in got]
        if missing:
            sys.exit(f'{path}: no verdict for {len(missing)} rows (first {missing[0]})')
        for r in sorted(sheets[name], key=lambda s: int(s.split('-')[1])):
            ok, reason = got[r]
            req, up, low = key[r]
            rows.append(f'{int(ok)}\t{up}\t{low}\t{req}\t{r}\t{reason}')
            printable += ok
    with open(out, 'w', encoding='utf-8') as f:
        f.write("# printable (1) or not (0)\t上联\t下联\trequest\tsheet-row\tthe judge's reason\n")
        f.write('\n'.join(rows) + '\n')
    print(f'{len(rows)} verdicts, {printable} printable', file=sys.stderr)


if __name__ == '__main__':
    if len(sys.argv) < 2 or sys.argv[1] not in ('make', 'collect'):
        sys.exit(__doc__)
    (make if sys.argv[1] == 'make' else collect)(sys.argv[2:])
