#!/usr/bin/env python3
"""Token-id prompts equal to those of our batching benchmark.

`Workload::uniform` (bench/workload.cpp) asks for keyword couplets of 7
characters from 16 fixed themes; CoupletModel::makePolicy
(core/model/couplet_model.cpp) turns each into

    <bos> <kw> k1 k1 ... [<sep> k2 k2 ...] <len7> <up>

(keywords split on spaces and commas as splitKeywords does, one token per
character, ids = line numbers of vocab.txt counted from 0). Themes with a
character missing from the vocabulary are skipped, as `usable()` does.

    python3 prompts.py MODEL_DIR OUT.txt    # one prompt a line, ids separated by spaces
"""

import re
import sys
from pathlib import Path

# The themes of Workload::uniform, in its order (bench/workload.cpp kKeywords).
WORKLOAD_KEYWORDS = [
    "五福", "龙年 生意", "春风", "家和 万事兴", "平安", "财源 广进", "新春 大吉", "花开 富贵",
    "国泰 民安", "学业 进步", "健康 长寿", "风调 雨顺", "瑞雪", "吉祥 如意", "红梅 报春", "山河 锦绣",
]
LINE_CHARS = 7

# Separators of splitKeywords (core/rules/keyword_plan.cpp).
SEPARATORS = re.compile("[ ,，、\t\u3000;；]+")


def load_vocab(model_dir):
    lines = (Path(model_dir) / "vocab.txt").read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def keyword_prompt(index, keywords, length):
    """The ids of one keyword prompt, or None if a character is unknown."""
    prompt = [index["<bos>"]]
    words = [w for w in SEPARATORS.split(keywords) if w]
    if words:
        prompt.append(index["<kw>"])
    for i, word in enumerate(words):
        if i > 0:
            prompt.append(index["<sep>"])
        for ch in word:
            if ch not in index:
                return None
            prompt.append(index[ch])
    if length > 0:
        prompt.append(index[f"<len{length}>"])
    prompt.append(index["<up>"])
    return prompt


def write_prompts(model_dir, out):
    pieces = load_vocab(model_dir)
    index = {p: i for i, p in enumerate(pieces)}
    lines = []
    for words in WORKLOAD_KEYWORDS:
        prompt = keyword_prompt(index, words, LINE_CHARS)
        if prompt is None:
            print(f"prompts: skipping '{words}': a character is not in the vocabulary", file=sys.stderr)
            continue
        lines.append(" ".join(map(str, prompt)))
    if not lines:
        sys.exit("prompts: the vocabulary accepts none of the workload's themes")
    Path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"prompts: wrote {len(lines)} prompts to {out}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write_prompts(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
