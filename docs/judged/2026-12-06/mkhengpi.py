"""A 横批 sheet: does the four-character 横批 fit the couplet and the request?

  python3 mkhengpi.py OUTDIR SEED name=file ...        (run in this folder; files as for mksheet_dedup.py)
  python3 mkhengpi.py --score OUTDIR/hkey.json verdicts...

Every distinct (request, 上联, 下联, 横批) of the arms is one row; its verdict counts for every arm that wrote
it. No corpus pairs real couplets with their 横批, so the controls are negative ones: 16 rows hold a couplet
of the first arm under a 横批 that the same arm wrote for another request (a shuffled 横批). A judge who
reads the 横批 against the couplet should fail most of them.
"""
import json, random, sys
from collections import defaultdict

from mksheet import prompts, read_out, request


def make(outdir, seed, specs):
    pm = {(p[0], p[2]): p for p in prompts}
    items, index, first = [], {}, []
    for s in specs:
        name, path = s.split('=')
        for g, text, up, lo, hp in read_out(path):
            p = pm[(g, text)]
            req = request(p[1], p[2], p[3])
            k = (req, up, lo, hp)
            if k not in index:
                index[k] = len(items)
                items.append(dict(sources=[], request=req, upper=up, lower=lo, hengpi=hp, group=g))
            items[index[k]]['sources'].append(name)
            if s == specs[0]:
                first.append(k)
    rng = random.Random(seed)
    picks = rng.sample(first, 16)
    for req, up, lo, hp in picks:
        others = [k[3] for k in first if k[0] != req and k[3] != hp and k[3] not in up + lo]
        items.append(dict(sources=['shuffled'], request=req, upper=up, lower=lo, hengpi=rng.choice(others),
                          group='control'))
    rng.shuffle(items)
    with open(f'{outdir}/hengpi.md', 'w') as f:
        f.write('| id | request | 上联 | 下联 | 横批 |\n|---|---|---|---|---|\n')
        for i, it in enumerate(items, 1):
            f.write(f"| {i} | {it['request']} | {it['upper']} | {it['lower']} | {it['hengpi']} |\n")
    json.dump(items, open(f'{outdir}/hkey.json', 'w'), ensure_ascii=False, indent=0)
    print(len(items), 'rows')


def verdicts(path):
    out = {}
    for line in open(path, encoding='utf-8'):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) >= 2 and cells[0].isdigit() and cells[1] in ('✓', '✗'):
            out[int(cells[0])] = cells[1] == '✓'
    return out


def score(keyfile, paths):
    key = json.load(open(keyfile))
    for path in paths:
        v = verdicts(path)
        agg = defaultdict(lambda: [0, 0])
        for i, it in enumerate(key, 1):
            if i in v:
                for s in it['sources']:
                    agg[s][0] += v[i]
                    agg[s][1] += 1
        print(path, 'rows judged', len(v), 'of', len(key))
        for k in sorted(agg):
            print(f'  {k:12s} {agg[k][0]:3d}/{agg[k][1]:3d} = {100 * agg[k][0] / agg[k][1]:.0f}%')


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == '--score':
        score(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) > 3:
        make(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
    else:
        sys.exit(__doc__)
