"""A 横批 sheet: does the four-character 横批 fit the couplet and the request?

  python3 mkhengpi.py OUTDIR SEED name=file ...        (run in this folder; files as for mksheet_dedup.py)

Score it as any deduplicated sheet: python3 score_dedup.py OUTDIR/hkey.json hengpi-verdicts...
(the shuffled 横批 count as the source "shuffled").

Every distinct (request, 上联, 下联, 横批) of the arms is one row; its verdict counts for every arm that wrote
it. No corpus pairs real couplets with their 横批, so the controls are negative ones: 16 rows hold a couplet
of the first arm under a 横批 that the same arm wrote for another request (a shuffled 横批). A judge who
reads the 横批 against the couplet should fail most of them.
"""
import random, sys

from mksheet_dedup import arm_items, write_sheet


def make(outdir, seed, specs):
    items, keys = arm_items(specs, with_hengpi=True)
    first = keys[specs[0].split('=')[0]]
    rng = random.Random(seed)
    picks = rng.sample(first, 16)
    for req, up, lo, hp in picks:
        others = [k[3] for k in first if k[0] != req and k[3] != hp and k[3] not in up + lo]
        items.append(dict(sources=['shuffled'], request=req, upper=up, lower=lo, hengpi=rng.choice(others),
                          group='control'))
    rng.shuffle(items)
    write_sheet(items, f'{outdir}/hengpi.md', f'{outdir}/hkey.json', with_hengpi=True)
    print(len(items), 'rows')


if __name__ == '__main__':
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    make(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
