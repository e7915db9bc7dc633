#!/usr/bin/env python3
"""Draws training/curve.tsv as an SVG line chart (no plotting library needed).

Usage: python3 training/plot_curve.py [training/curve.tsv] [training/curve.svg]
x: optimiser steps over all stages; y: trainer validation perplexity (points above 160, stage 1's first two, are left off),
one colour per model size; the shipped model's last point is marked.
"""
import sys

OFFSETS = {1: 0, 2: 3216, 3: 5416, 4: 11416, 5: 21166, 6: 26766, 7: 30766, 8: 38766}
COLOURS = {4: "#1f77b4", 6: "#ff7f0e", 8: "#2ca02c", 10: "#d62728"}
SHIPPED = (7, 8000)  # stage, step: the shipped weights (since session 15)


def read(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        stage, layers, step, ppl = line.rstrip("\n").split("\t")
        rows.append((int(stage), int(layers), int(step), float(ppl)))
    return rows


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "training/curve.tsv"
    dst = sys.argv[2] if len(sys.argv) > 2 else "training/curve.svg"
    rows = read(src)
    width, height, left, right, top, bottom = 760, 380, 60, 20, 30, 50
    xmax = max(OFFSETS[s] + st for s, _, st, _ in rows)
    xmax = -(-xmax // 5000) * 5000
    ylo, yhi = 95, 160
    rows = [r for r in rows if r[3] <= yhi]
    def px(x): return left + (width - left - right) * x / xmax
    def py(y): return top + (height - top - bottom) * (yhi - y) / (yhi - ylo)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">Trainer validation 下联 perplexity over all stages (stage 1 began at 561 and 234: off the chart)</text>']
    for y in range(100, yhi + 1, 10):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y}</text>')
    for x in range(0, xmax + 1, 5000):
        out.append(f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{top}" y2="{height - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{px(x):.1f}" y="{height - bottom + 16}" text-anchor="middle">{x:,}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">optimiser steps, all stages '
               '(batch 128, about 3,200 tokens a step)</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{py(100):.1f}" y2="{py(100):.1f}" stroke="#d62728" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{left + 6}" y="{py(100) - 4:.1f}" fill="#d62728">target 100</text>')
    for stage in sorted({r[0] for r in rows}):
        pts = [(OFFSETS[s] + st, p, layers) for s, layers, st, p in rows if s == stage]
        colour = COLOURS.get(pts[0][2], "black")
        path = " ".join(f"{px(x):.1f},{py(p):.1f}" for x, p, _ in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, p, _ in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(p):.1f}" r="2.5" fill="{colour}"/>')
        x, p, _ = pts[-1]
        out.append(f'<text x="{px(x):.1f}" y="{py(p) - 8:.1f}" text-anchor="middle" fill="#555">{stage}</text>')
    s, st = SHIPPED
    x = OFFSETS[s] + st
    p = next(r[3] for r in rows if r[0] == s and r[2] == st)
    out.append(f'<circle cx="{px(x):.1f}" cy="{py(p):.1f}" r="6" fill="none" stroke="black"/>')
    out.append(f'<text x="{px(x) - 10:.1f}" y="{py(p) + 16:.1f}" text-anchor="end">shipped (stage 7, step 8,000)</text>')
    ly = top + 10
    for layers, colour in COLOURS.items():
        out.append(f'<rect x="{width - right - 150}" y="{ly}" width="12" height="3" fill="{colour}"/>')
        out.append(f'<text x="{width - right - 132}" y="{ly + 5}">{layers} layers</text>')
        ly += 16
    out.append(f'<text x="{width - right - 150}" y="{ly + 5}" fill="#555">numbers: stages</text>')
    out.append("</svg>")
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
