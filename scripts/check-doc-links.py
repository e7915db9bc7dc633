#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md (and any
Markdown file given) resolves: the file or folder exists, and a #fragment
names a heading of the target (GitHub's slugs). Prints each broken link
with its file and line; exits 1 if there is one.

    scripts/check-doc-links.py [FILE.md ...]
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
HEADING = re.compile(r'^#{1,6}\s+(.*?)\s*#*\s*$')
FENCE = re.compile(r'^\s*(```|~~~)')


def slug(heading):
    text = re.sub(r'`', '', heading).strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)  # GitHub drops punctuation, keeps letters of any script
    return text.replace(' ', '-')


def anchors(path):
    seen, out = {}, set()
    in_fence = False
    for line in path.read_text(encoding='utf-8').splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else HEADING.match(line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f'{s}-{n}')
    return out


def check(md):
    broken, count = [], 0
    in_fence = False
    for number, line in enumerate(md.read_text(encoding='utf-8').splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(line):
            if re.match(r'^[a-z]+:', target):  # http:, https:, mailto:
                continue
            count += 1
            path_part, _, fragment = target.partition('#')
            dest = (md.parent / path_part).resolve() if path_part else md
            if not dest.exists():
                broken.append(f'{md.relative_to(ROOT)}:{number}: {target}: no such file')
            elif fragment and dest.suffix == '.md' and fragment not in anchors(dest):
                broken.append(f'{md.relative_to(ROOT)}:{number}: {target}: no heading #{fragment}')
    return broken, count


def main():
    files = [Path(f).resolve() for f in sys.argv[1:]] or [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
    broken, total = [], 0
    for md in files:
        b, n = check(md)
        broken += b
        total += n
        print(f'{md.relative_to(ROOT)}: {n} relative links, {len(b)} broken')
    for line in broken:
        print(line)
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
