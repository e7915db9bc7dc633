"""Printable per arm and mode for a sheet of mksheet_dedup.py: python3 score_dedup.py KEY verdicts..."""
import json, re, sys
from collections import defaultdict
MODE = {'keywords': 'keywords', 'themes': 'keywords', 'occasions': 'keywords', 'nine': 'keywords',
        'upper': 'upper', 'acrostic': 'acrostic', 'names': 'acrostic', 'control': 'control'}
key = json.load(open(sys.argv[1]))
def verdicts(path):
    out = {}
    for line in open(path, encoding='utf-8'):
        m = re.match(r'\|\s*(\d+)\s*\|\s*([✓✗])\s*\|', line)
        if m:
            i = int(m.group(1))
            if i in out: break
            out[i] = m.group(2) == '✓'
    return out
all_v = [verdicts(p) for p in sys.argv[2:]]
for path, v in zip(sys.argv[2:], all_v):
    agg = defaultdict(lambda: [0, 0])
    for i, it in enumerate(key, 1):
        if i not in v: continue
        for s in it['sources']:
            for k in (s, f'{s} {MODE[it["group"]]}'):
                agg[k][0] += v[i]; agg[k][1] += 1
    print(path, 'rows judged', len(v), 'of', len(key))
    for k in sorted(agg): print(f'  {k:20s} {agg[k][0]:3d}/{agg[k][1]:3d} = {100 * agg[k][0] / agg[k][1]:.0f}%')
if len(all_v) == 2:
    a, b = all_v
    same = sum(a[i] == b[i] for i in a if i in b)
    print(f'agreement {same}/{len(a)} = {100 * same / len(a):.0f}%')
