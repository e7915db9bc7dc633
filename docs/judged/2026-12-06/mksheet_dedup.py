"""A sheet where a couplet that several arms wrote is judged once (its verdict counts for each of them).

  python3 mksheet_dedup.py OUTDIR SEED [--strict] name=file ...   (run in this folder)

Same prompts, requests, controls and shuffling as mksheet.py; key.json gives each row its "sources".
Score with score_dedup.py.
"""
import json, random, sys
sys.argv = [a for a in sys.argv]
strict = '--strict' in sys.argv
import mksheet  # reads --strict from sys.argv itself
from mksheet import controls, prompts, read_out, request


def arm_items(specs, with_hengpi=False):
    """The distinct outputs of the arms (name=file ...), each with the arms that wrote it ("sources"),
    and each arm's keys in its file's order. A row's key is (request, 上联, 下联), and its 横批 too when
    with_hengpi (the 横批 sheet)."""
    pm = {(p[0], p[2]): p for p in prompts}
    items, index, keys = [], {}, {}
    for s in specs:
        name, path = s.split('=')
        keys[name] = []
        for g, text, up, lo, hp in read_out(path):
            p = pm[(g, text)]
            req = request(p[1], p[2], p[3])
            k = (req, up, lo, hp) if with_hengpi else (req, up, lo)
            if k not in index:
                index[k] = len(items)
                items.append(dict(sources=[], request=req, upper=up, lower=lo, hengpi=hp, group=g))
            items[index[k]]['sources'].append(name)
            keys[name].append(k)
    return items, keys


def write_sheet(items, sheet_path, key_path, with_hengpi=False):
    """The rows, in their order, as the judges' Markdown table (the 横批 column when with_hengpi), and the
    key that scores them (score_dedup.py)."""
    with open(sheet_path, 'w') as f:
        if with_hengpi:
            f.write('| id | request | 上联 | 下联 | 横批 |\n|---|---|---|---|---|\n')
        else:
            f.write('| id | request | 上联 | 下联 |\n|---|---|---|---|\n')
        for i, it in enumerate(items, 1):
            hengpi = f" {it['hengpi']} |" if with_hengpi else ''
            f.write(f"| {i} | {it['request']} | {it['upper']} | {it['lower']} |{hengpi}\n")
    json.dump(items, open(key_path, 'w'), ensure_ascii=False, indent=0)


def main():
    outdir, seed, specs = sys.argv[1], int(sys.argv[2]), [a for a in sys.argv[3:] if a != '--strict']
    items, _ = arm_items(specs)
    for r, u, l in controls():
        items.append(dict(sources=['control'], request=r, upper=u, lower=l, hengpi='', group='control'))
    rng = random.Random(seed)
    rng.shuffle(items)
    write_sheet(items, f'{outdir}/sheet.md', f'{outdir}/key.json')
    from collections import Counter
    print(len(items), 'rows;', Counter(s for i in items for s in i['sources']))


if __name__ == '__main__':
    main()
