"""Two more signals for choosing among the pool of 16, scored against every blind verdict so far.

  couplet eval --prompts docs/judged/2026-12-06/prompts.tsv --seeds 2 --year 2027 --threads 2 \
      --count 16 --candidates 1 --json pool16.json
  g++ -O2 -std=c++20 -I/usr/include/LibIME -I/usr/include/Fcitx5/Utils lmscore.cpp -lIMECore -lFcitx5Utils -o lmscore
  python3 selector_signals.py pool16.json ./lmscore      (run in this folder)

lmscore needs libimecore-dev, libfcitx5utils-dev and libime-data-language-model (LGPL-2.1+), which the
project does not install: this is an experiment, not a feature.
Signals: the model's mean log-probability (the rerank's strongest term), the rerank's score, consensus
(the share of a candidate's character bigrams that the pool's other candidates hold, on average; MBR),
and libime's modern-Chinese word language model (log10 per character, best segmentation).
Printed: AUC over all labelled candidates, and the share of (printable, unprintable) pairs of the same
request that each orders right (a choice is made within a request).
"""
import collections, glob, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
J = os.path.dirname(HERE)

sys.path.insert(0, J)
from judge_auc import verdicts_md  # noqa: E402  (the first table of a verdicts file)

labels = collections.defaultdict(list)
for d in glob.glob(J + '/*/'):
    if not os.path.exists(d + 'key.json'): continue
    key = json.load(open(d + 'key.json'))
    for v in glob.glob(d + 'verdicts-judge*.md'):
        vd = verdicts_md(v)
        for i, it in enumerate(key, 1):
            if 'control' in it.get('sources', [it.get('source')]) or i not in vd: continue
            labels[(it['upper'], it['lower'])].append(vd[i])

j = json.load(open(sys.argv[1]))
pools = [j[i:i + 16] for i in range(0, len(j), 16)]
lines = [l.replace('，', '') for c in j for l in (c['upper'], c['lower'])]
lm = subprocess.run([sys.argv[2]], input='\n'.join(lines) + '\n', capture_output=True, text=True).stdout.split('\n')

def grams(c):
    return {l[k:k + 2] for l in (c['upper'].replace('，', ''), c['lower'].replace('，', '')) for k in range(len(l) - 1)}

rows = []
for pi, p in enumerate(pools):
    G = [grams(c) for c in p]
    for i, c in enumerate(p):
        others = [G[k] for k in range(len(p)) if (p[k]['upper'], p[k]['lower']) != (c['upper'], c['lower'])]
        n = 2 * (pi * 16 + i)
        a, b = lm[n].split('\t'), lm[n + 1].split('\t')
        rows.append(dict(pool=pi, c=c, lab=labels.get((c['upper'], c['lower'])),
                         cons=sum(len(G[i] & o) / max(1, len(G[i])) for o in others) / max(1, len(others)),
                         lm=(float(a[0]) + float(b[0])) / (len(lines[n]) + len(lines[n + 1]))))
lab = [r for r in rows if r['lab']]
P = lambda r: sum(r['lab']) / len(r['lab']) >= 0.5

def auc(key):
    pos = [key(x) for x in lab if P(x)]; neg = [key(x) for x in lab if not P(x)]
    return sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / len(pos) / len(neg)

def pairs(key):
    by = collections.defaultdict(dict)
    for r in lab: by[r['pool']][(r['c']['upper'], r['c']['lower'])] = r
    ok = n = 0
    for xs in by.values():
        for a in xs.values():
            for b in xs.values():
                if P(a) and not P(b): n += 1; ok += (key(a) > key(b)) + 0.5 * (key(a) == key(b))
    return ok / max(1, n), n

lp = lambda r: r['c']['parts']['log_prob']
print(f"{len(lab)} labelled candidates of {len(rows)}, {sum(P(r) for r in lab)} printable")
print('| signal | AUC, all | pairs of one request ordered right |\n|---|---:|---:|')
for name, key in [('model mean log-probability', lp), ('rerank score (default)', lambda r: r['c']['score']),
                  ('consensus (MBR)', lambda r: r['cons']), ('libime word LM per character', lambda r: r['lm']),
                  ('log-probability + 0.2 x word LM', lambda r: lp(r) + 0.2 * r['lm']),
                  ('rerank score + 2 x consensus', lambda r: r['c']['score'] + 2 * r['cons'])]:
    a, (p, n) = auc(key), pairs(key)
    print(f'| {name} | {a:.3f} | {p:.3f} (of {n}) |')
