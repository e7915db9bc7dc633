#!/usr/bin/env python3
"""Mix fp16 safetensors weights of models that share one architecture and one starting point.

    mix-weights.py OUT.safetensors BASE.safetensors A.safetensors:1.5 [B.safetensors:-0.5 ...]

The result is BASE + sum_i w_i * (M_i - BASE), tensor by tensor, rounded to fp16:
  * extrapolation past a preference-trained model D from its starting point R (ExPO, Zheng et al. 2024,
    "Weak-to-strong extrapolation expedites alignment"): BASE=R, D:1.5 gives D + 0.5 (D - R);
  * a uniform soup of two fine-tunes D and E of R: BASE=R, D:0.5, E:0.5.
Every file must hold the same tensor names, shapes and dtype F16; anything else is refused by name.
Pure Python (struct), no numpy: about 10 s for the 8.2 M-parameter model. The file is read by the GGUF
converter's reader (bench/llamacpp/to_gguf.py).
"""
import json
import math
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "llamacpp"))
from to_gguf import ConversionError, read_safetensors_file, to_f32_values  # noqa: E402


def read(path):
    """The file's metadata and {name: (shape, values)}; only F16 tensors are mixed."""
    try:
        meta, raw = read_safetensors_file(path)
    except ConversionError as e:
        sys.exit(str(e))
    tensors = {}
    for name, (dtype, shape, data) in raw.items():
        if dtype != "F16":
            sys.exit(f"{path}: tensor {name} is {dtype}, only F16 is mixed")
        tensors[name] = (shape, to_f32_values(dtype, data))
    return meta, tensors


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    out, base_path, parts = argv[1], argv[2], argv[3:]
    meta, base = read(base_path)
    mixes = []
    for part in parts:
        path, _, w = part.rpartition(":")
        if not path:
            sys.exit(f"{part}: expected PATH:WEIGHT")
        _, t = read(path)
        if t.keys() != base.keys():
            sys.exit(f"{path}: tensor names differ from {base_path}: "
                     f"{sorted(t.keys() ^ base.keys())[:5]}")
        for name, (shape, _) in t.items():
            if shape != base[name][0]:
                sys.exit(f"{path}: tensor {name} has shape {shape}, {base_path} has {base[name][0]}")
        mixes.append((float(w), t))
    header = {"__metadata__": dict(meta, mixed=" ".join(parts), base=base_path)}
    blobs, offset = [], 0
    for name in sorted(base):
        shape, b = base[name]
        vals = list(b)
        for w, t in mixes:
            m = t[name][1]
            vals = [v + w * (x - y) for v, x, y in zip(vals, m, b)]
        for v in vals:
            if not math.isfinite(v) or abs(v) > 65504:
                sys.exit(f"tensor {name}: a mixed value {v} does not fit fp16")
        blob = struct.pack(f"<{len(vals)}e", *vals)
        header[name] = {"dtype": "F16", "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(out, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))
    print(f"{out}: {len(base)} tensors, {offset // 2} values")


if __name__ == "__main__":
    main(sys.argv)
