#!/usr/bin/env python3
"""Merges compare.sh's JSON files (couplet-P.json, llamacpp-D.json in one
folder) into a Markdown table: tokens/s and ms per step for each engine and
batch size, and our best over llama.cpp's best.

Tokens/s are not measured the same way, and the difference favours llama.cpp:
ours are generated tokens over the whole run (prefill of every prompt,
sampling under the couplet constraints, the scheduler), llama.cpp's are
sequences x steps over the decode steps alone (argmax on the host, prefill
not timed)."""
import json
import sys
from pathlib import Path


def load(folder):
    ours, theirs = {}, {}
    for path in sorted(folder.glob("couplet-*.json")):
        doc = json.loads(path.read_text())
        ours[path.stem.removeprefix("couplet-")] = {p["batch_size"]: p for p in doc.get("sweep", [])}
    for path in sorted(folder.glob("llamacpp-*.json")):
        doc = json.loads(path.read_text())
        theirs[path.stem.removeprefix("llamacpp-")] = {p["batch"]: p for p in doc.get("points", [])}
    return ours, theirs


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "build/llamacpp/compare")
    ours, theirs = load(folder)
    if not ours or not theirs:
        sys.exit(f"table.py: {folder} needs couplet-*.json and llamacpp-*.json (run compare.sh)")
    batches = sorted({b for runs in (*ours.values(), *theirs.values()) for b in runs})
    head = ["batch"] + [f"ours {p}" for p in ours] + [f"llama.cpp {d}" for d in theirs] + ["best ours / best llama.cpp"]
    print("tokens/s (ms per step)\n")
    print("| " + " | ".join(head) + " |")
    print("|" + "---:|" * len(head))
    for b in batches:
        row, best_ours, best_theirs = [str(b)], 0.0, 0.0
        for runs in ours.values():
            p = runs.get(b)
            row.append(f"{p['tokens_per_s']:,.0f} ({p['step_ms']:.2f})" if p else "")
            best_ours = max(best_ours, p["tokens_per_s"] if p else 0)
        for runs in theirs.values():
            p = runs.get(b)
            row.append(f"{p['tokens_per_s']:,.0f} ({p['step_ms_mean']:.2f})" if p else "")
            best_theirs = max(best_theirs, p["tokens_per_s"] if p else 0)
        row.append(f"{best_ours / best_theirs:.2f}x" if best_ours and best_theirs else "")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
