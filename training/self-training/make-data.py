#!/usr/bin/env python3
"""Build the data folder of a self-training (rejection-sampling fine-tuning) stage.

  python3 training/self-training/make-data.py [--cap N] ../shared/data OUT WEIGHT VERDICTS.tsv [VERDICTS.tsv ...]

OUT gets links to DATA's couplets/*.tsv and idioms/, and couplets/x-printable.tsv: every couplet that a
verdicts file marks printable (first column 1; then 上联, 下联), once, without a year animal (the
year is the prompt's business, not the writer's), in a fixed shuffled order; couplets/mix.txt draws it at
WEIGHT beside the built-in weights (modern 0.55, verse-song 0.2, verse-tang 0.15, classical 0.1) with
synthetic 横批. The other files sort before x-printable.tsv, so the validation split stays the same pairs.

--cap N keeps at most N couplets of one template (the same last three characters of both lines, such as
...千家乐 / ...万户欢) and at most N couplets that share a line, so that the stock endings the judges pass
most often do not become the only ones the model writes.
"""
import os, random, sys

args = sys.argv[1:]
cap = 0
if args[:1] == ['--cap'] and len(args) > 1:
    cap, args = int(args[1]), args[2:]
if len(args) < 4:
    sys.exit(__doc__)
data, out, weight, verdicts = args[0], args[1], float(args[2]), args[3:]
animals = '鼠牛虎兔龙蛇马羊猴鸡狗猪'
src = os.path.join(data, 'couplets')
if not os.path.isdir(src):
    sys.exit(f'{src}: no such folder (expected DATA/couplets/*.tsv)')
os.makedirs(os.path.join(out, 'couplets'), exist_ok=True)
for name in sorted(os.listdir(src)):
    if name.endswith('.tsv'):
        link = os.path.join(out, 'couplets', name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.abspath(os.path.join(src, name)), link)
if os.path.isdir(os.path.join(data, 'idioms')) and not os.path.lexists(os.path.join(out, 'idioms')):
    os.symlink(os.path.abspath(os.path.join(data, 'idioms')), os.path.join(out, 'idioms'))
printable = set()
for path in verdicts:
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.startswith('#') or not line.strip():
            continue
        f = line.rstrip('\n').split('\t')
        if len(f) < 3 or f[0] not in ('0', '1'):
            sys.exit(f'{path}: line {no}: expected "1 or 0<TAB>上联<TAB>下联[<TAB>...]"')
        if f[0] == '1' and not any(a in f[1] + f[2] for a in animals):
            printable.add((f[1], f[2]))
pairs = sorted(printable)
random.Random(5).shuffle(pairs)
if cap:
    from collections import Counter
    seen_template, seen_line, kept = Counter(), Counter(), []
    for u, d in pairs:
        t = (u[-3:], d[-3:])
        if seen_template[t] >= cap or seen_line[u] >= cap or seen_line[d] >= cap:
            continue
        seen_template[t] += 1
        seen_line[u] += 1
        seen_line[d] += 1
        kept.append((u, d))
    pairs = kept
with open(os.path.join(out, 'couplets', 'x-printable.tsv'), 'w', encoding='utf-8') as f:
    f.writelines(f'{u}\t{d}\n' for u, d in pairs)
with open(os.path.join(out, 'couplets', 'mix.txt'), 'w', encoding='utf-8') as f:
    f.write('# the couplets of the model that blind judges passed (self-training)\n')
    f.write(f'x-printable\t{weight}\thengpi\n')
print(f'{out}: {len(pairs)} printable couplets from {len(verdicts)} verdict file(s), drawn at {weight}')
