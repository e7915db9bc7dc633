"""Printable per arm and mode for a sheet of mksheet_dedup.py: python3 score_dedup.py KEY verdicts..."""
import json, sys

from judge_auc import verdicts_md  # id -> printable, from a verdicts file
from collections import defaultdict
MODE = {'keywords': 'keywords', 'themes': 'keywords', 'occasions': 'keywords', 'nine': 'keywords',
        'upper': 'upper', 'acrostic': 'acrostic', 'names': 'acrostic', 'control': 'control'}
key = json.load(open(sys.argv[1]))
all_v = [verdicts_md(p) for p in sys.argv[2:]]
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
