#!/usr/bin/env python3
"""Preference pairs for `couplet train --preferences` from blind judges' verdicts.

usage: make-preferences.py OUT.tsv [--per-request N] [--seed S] VERDICTS.tsv...

Each verdict file has rows: printable (1/0), 上联, 下联, request, sheet-row, reason
(docs/judged/2026-12-06/verdict-judge/verdicts.tsv, self-training/verdicts-round*.tsv).
For every request with at least one printable and one unprintable couplet, pairs
(printable, unprintable) are written, at most N per request (default 4; drawn with a
fixed seed). A couplet with verdicts both ways counts by its verdicts' mean
(a tie is left out). The request is written back in the form the trainer reads:
mode (keywords | acrostic | upper), text, length.
"""
import collections
import random
import re
import sys

REQUEST = [
    (re.compile(r'^关键词 (.+)，(\d+)字$'), 'keywords'),
    (re.compile(r'^藏头 (\S+?)（.*），(\d+)字$'), 'acrostic'),
    (re.compile(r'^给定上联 (\S+?)，写下联，(\d+)字$'), 'upper'),
]


def parse_request(text):
    for pattern, mode in REQUEST:
        m = pattern.match(text)
        if m:
            return mode, m.group(1), int(m.group(2))
    raise ValueError('request not understood: ' + text)


def main(argv):
    per_request, seed, files, out = 4, 1, [], None
    it = iter(argv)
    for a in it:
        if a == '--per-request':
            per_request = int(next(it))
        elif a == '--seed':
            seed = int(next(it))
        elif out is None:
            out = a
        else:
            files.append(a)
    if out is None or not files:
        sys.exit(__doc__)
    votes = collections.defaultdict(list)  # (request, 上联, 下联) -> verdicts
    for path in files:
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                if line.startswith('#'):
                    continue
                parts = line.rstrip('\n').split('\t')
                if len(parts) < 4 or parts[0] not in ('0', '1'):
                    sys.exit(f'{path}:{number}: not a verdict row')
                votes[(parts[3], parts[1], parts[2])].append(int(parts[0]))
    by_request = collections.defaultdict(lambda: ([], []))
    for (request, upper, lower), v in sorted(votes.items()):
        mean = sum(v) / len(v)
        if mean != 0.5:
            by_request[request][0 if mean > 0.5 else 1].append((upper, lower))
    rng = random.Random(seed)
    rows = []
    for request in sorted(by_request):
        good, bad = by_request[request]
        pairs = [(g, b) for g in good for b in bad]
        if not pairs:
            continue
        rng.shuffle(pairs)
        mode, text, length = parse_request(request)
        for g, b in pairs[:per_request]:
            rows.append((mode, text, str(length), g[0], g[1], b[0], b[1]))
    with open(out, 'w', encoding='utf-8') as f:
        f.write('# mode\ttext\tlength\tchosen 上联\tchosen 下联\trejected 上联\trejected 下联\n')
        for r in rows:
            f.write('\t'.join(r) + '\n')
    print(f'{len(rows)} pairs from {sum(1 for g, b in by_request.values() if g and b)} requests '
          f'({len(votes)} judged couplets)', file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1:])
