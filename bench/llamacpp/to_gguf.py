#!/usr/bin/env python3
"""Converts a Couplet Studio model folder into a GGUF v3 file for llama.cpp's
`gpt2` architecture, so that both engines run the same weights.

Python 3 standard library only. Our model (core/model/transformer.cpp) is
GPT-2 in all that matters to llama.cpp's gpt2 graph: pre-norm blocks,
learned positions, fused qkv Linear whose 3*dim outputs are [q | k | v] (each
head-major), torch LayerNorm (eps 1e-5), attention scaled by 1/sqrt(headDim),
a GELU MLP, and an output projection tied to the token embedding (so no
`output.weight` is written: llama.cpp's gpt2 loader falls back to
token_embd.weight).

The tokenizer is llama.cpp's "none" type with `gpt2.vocab_size` dummy tokens:
the benchmark feeds token ids, so no merges or pre-tokenizer are needed.

    python3 to_gguf.py resources/models/default out.gguf [--dtype f32|f16|bf16|q8_0]
"""

import argparse
import array
import json
import struct
import sys
from pathlib import Path

GGUF_MAGIC = b"GGUF"
GGUF_VERSION = 3
ALIGNMENT = 32  # GGUF_DEFAULT_ALIGNMENT; no general.alignment key is written

# gguf_type values (ggml/include/gguf.h)
GGUF_UINT32, GGUF_FLOAT32, GGUF_STRING = 4, 6, 8
# ggml_type values (ggml/include/ggml.h) and their element sizes
GGML_TYPES = {"f32": (0, 4), "f16": (1, 2), "bf16": (30, 2), "q8_0": (8, None)}
Q8_0_BLOCK = 32  # block_q8_0: one fp16 scale, then 32 signed bytes
# llama_ftype written as general.file_type (include/llama.h)
FILE_TYPES = {"f32": 0, "f16": 1, "bf16": 32, "q8_0": 7}
LAYER_NORM_EPS = 1e-5  # torch::nn::LayerNormOptions default, used by every LayerNorm of ours


class ConversionError(Exception):
    pass


def read_safetensors(path):
    """Returns {name: (dtype, shape, raw little-endian bytes)}."""
    return read_safetensors_file(path)[1]


def read_safetensors_file(path):
    """Returns the header's __metadata__ ({} without one) and {name: (dtype, shape, raw little-endian bytes)}.
    Also read by training/self-training/mix-weights.py."""
    data = Path(path).read_bytes()
    if len(data) < 8:
        raise ConversionError(f"{path}: truncated, no header")
    (header_len,) = struct.unpack_from("<Q", data, 0)
    if 8 + header_len > len(data):
        raise ConversionError(f"{path}: header length {header_len} exceeds the file size {len(data)}")
    header = json.loads(data[8:8 + header_len])
    body = memoryview(data)[8 + header_len:]
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        tensors[name] = (entry["dtype"], list(entry["shape"]), bytes(body[begin:end]))
    return header.get("__metadata__", {}), tensors


def to_f32_values(dtype, raw):
    """The tensor's values as an array('f')."""
    if dtype == "F32":
        values = array.array("f")
        values.frombytes(raw)
    elif dtype == "F16":
        values = array.array("f", struct.unpack(f"<{len(raw) // 2}e", raw))
    elif dtype == "BF16":
        halves = array.array("H")
        halves.frombytes(raw)
        words = array.array("I", (h << 16 for h in halves))
        values = array.array("f")
        values.frombytes(words.tobytes())
    else:
        raise ConversionError(f"unsupported safetensors dtype {dtype}")
    if sys.byteorder != "little":
        values.byteswap()
    return values


def f32_to_bf16_bytes(values):
    """Round to nearest even, as torch does (NaN stays NaN)."""
    words = array.array("I")
    words.frombytes(values.tobytes())
    out = array.array("H")
    for w in words:
        if (w & 0x7F800000) == 0x7F800000 and (w & 0x7FFFFF):
            out.append((w >> 16) | 0x40)
        else:
            out.append(((w + 0x7FFF + ((w >> 16) & 1)) >> 16) & 0xFFFF)
    return out.tobytes()


def encode(dtype, raw, target):
    """Raw bytes of the tensor in the target ggml type."""
    if target == "f16" and dtype == "F16":
        return raw
    if target == "bf16" and dtype == "BF16":
        return raw
    values = to_f32_values(dtype, raw)
    if target == "f32":
        return values.tobytes()
    if target == "f16":
        return struct.pack(f"<{len(values)}e", *values)
    if target == "q8_0":
        return q8_0_bytes(values)
    return f32_to_bf16_bytes(values)


def q8_0_bytes(values):
    """llama.cpp's Q8_0: blocks of 32 consecutive values along the contiguous
    dimension, each d = max|x| / 127 (stored fp16) and round(x / d) as int8."""
    if len(values) % Q8_0_BLOCK:
        raise ConversionError(f"q8_0 needs a multiple of {Q8_0_BLOCK} values, got {len(values)}")
    out = bytearray()
    for b in range(0, len(values), Q8_0_BLOCK):
        block = values[b:b + Q8_0_BLOCK]
        amax = max(abs(v) for v in block)
        d = amax / 127.0
        inv = 1.0 / d if d else 0.0
        out += struct.pack("<e", d)
        out += struct.pack(f"<{Q8_0_BLOCK}b", *(max(-127, min(127, round(v * inv))) for v in block))
    return bytes(out)


def tensor_map(layers):
    """Our parameter names -> llama.cpp gpt2 tensor names (llama-arch.cpp)."""
    names = {
        "wte.weight": "token_embd.weight",
        "wpe.weight": "position_embd.weight",
        "ln_f.weight": "output_norm.weight",
        "ln_f.bias": "output_norm.bias",
    }
    per_layer = {
        "ln1": "attn_norm", "attn.qkv": "attn_qkv", "attn.proj": "attn_output",
        "ln2": "ffn_norm", "mlp.up": "ffn_up", "mlp.down": "ffn_down",
    }
    for i in range(layers):
        for ours, theirs in per_layer.items():
            for kind in ("weight", "bias"):
                names[f"blocks.{i}.{ours}.{kind}"] = f"blk.{i}.{theirs}.{kind}"
    return names


def check_shapes(tensors, config):
    dim, hidden, vocab, ctx = config["dim"], config["mlp_hidden"], config["vocab_size"], config["max_len"]
    expected = {"wte.weight": [vocab, dim], "wpe.weight": [ctx, dim], "ln_f.weight": [dim], "ln_f.bias": [dim]}
    for i in range(config["layers"]):
        p = f"blocks.{i}."
        expected.update({
            p + "ln1.weight": [dim], p + "ln1.bias": [dim], p + "ln2.weight": [dim], p + "ln2.bias": [dim],
            p + "attn.qkv.weight": [3 * dim, dim], p + "attn.qkv.bias": [3 * dim],
            p + "attn.proj.weight": [dim, dim], p + "attn.proj.bias": [dim],
            p + "mlp.up.weight": [hidden, dim], p + "mlp.up.bias": [hidden],
            p + "mlp.down.weight": [dim, hidden], p + "mlp.down.bias": [dim],
        })
    for name, shape in expected.items():
        if name not in tensors:
            raise ConversionError(f"tensor '{name}' is missing")
        if tensors[name][1] != shape:
            raise ConversionError(f"tensor '{name}' has shape {tensors[name][1]}, config.json needs {shape}")
    extra = sorted(set(tensors) - set(expected))
    if extra:
        raise ConversionError(f"unexpected tensor '{extra[0]}'")


def gguf_string(text):
    raw = text.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def gguf_kv(key, kind, value):
    out = gguf_string(key) + struct.pack("<i", kind)
    if kind == GGUF_UINT32:
        return out + struct.pack("<I", value)
    if kind == GGUF_FLOAT32:
        return out + struct.pack("<f", value)
    return out + gguf_string(value)


def metadata(config, dtype, name):
    arch = "gpt2"
    return [
        ("general.architecture", GGUF_STRING, arch),
        ("general.name", GGUF_STRING, name),
        ("general.file_type", GGUF_UINT32, FILE_TYPES[dtype]),
        (f"{arch}.context_length", GGUF_UINT32, config["max_len"]),
        (f"{arch}.embedding_length", GGUF_UINT32, config["dim"]),
        (f"{arch}.block_count", GGUF_UINT32, config["layers"]),
        (f"{arch}.feed_forward_length", GGUF_UINT32, config["mlp_hidden"]),
        (f"{arch}.attention.head_count", GGUF_UINT32, config["heads"]),
        (f"{arch}.attention.layer_norm_epsilon", GGUF_FLOAT32, LAYER_NORM_EPS),
        (f"{arch}.vocab_size", GGUF_UINT32, config["vocab_size"]),
        ("tokenizer.ggml.model", GGUF_STRING, "none"),
    ]


def pad(n):
    return (ALIGNMENT - n % ALIGNMENT) % ALIGNMENT


def write_gguf(path, kvs, tensors):
    """tensors: [(name, shape in torch order, ggml type, bytes)]."""
    header = GGUF_MAGIC + struct.pack("<IQQ", GGUF_VERSION, len(tensors), len(kvs))
    header += b"".join(gguf_kv(*kv) for kv in kvs)
    offset = 0
    for name, shape, ggml_type, raw in tensors:
        ne = list(reversed(shape))  # ggml's ne[0] is the contiguous (last torch) dimension
        header += gguf_string(name) + struct.pack("<I", len(ne)) + struct.pack(f"<{len(ne)}q", *ne)
        header += struct.pack("<iQ", ggml_type, offset)
        offset += len(raw) + pad(len(raw))
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(header + b"\0" * pad(len(header)))
        for _, _, _, raw in tensors:
            f.write(raw + b"\0" * pad(len(raw)))
    tmp.replace(path)


def convert(model_dir, out_path, dtype):
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    vocab_lines = (model_dir / "vocab.txt").read_text(encoding="utf-8").split("\n")
    vocab_size = len(vocab_lines) - (1 if vocab_lines and vocab_lines[-1] == "" else 0)
    if vocab_size != config["vocab_size"]:
        raise ConversionError(f"vocab.txt holds {vocab_size} tokens but config.json says {config['vocab_size']}")
    source = read_safetensors(model_dir / "model.safetensors")
    check_shapes(source, config)
    out = []
    for ours, theirs in tensor_map(config["layers"]).items():
        src_dtype, shape, raw = source[ours]
        # Norms and biases stay f32, as in llama.cpp's own converters: ggml adds them to f32 activations.
        target = dtype if len(shape) >= 2 else "f32"
        if target == "q8_0" and theirs == "position_embd.weight":
            target = "f32"  # added to the activations, as llama.cpp's own quantiser leaves it
        out.append((theirs, shape, GGML_TYPES[target][0], encode(src_dtype, raw, target)))
    write_gguf(out_path, metadata(config, dtype, f"couplet-studio/{model_dir.name}"), out)
    dtypes = sorted({d for d, _, _ in source.values()})
    return len(out), dtypes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path, help="folder with config.json, model.safetensors, vocab.txt")
    parser.add_argument("out", type=Path, help="GGUF file to write")
    parser.add_argument("--dtype", choices=sorted(GGML_TYPES), default="f32",
                        help="type of the 2-D tensors (default f32, as our fp32 reference computes)")
    args = parser.parse_args()
    try:
        count, dtypes = convert(args.model_dir, args.out, args.dtype)
    except (ConversionError, OSError, KeyError, ValueError) as e:
        sys.exit(f"to_gguf: {args.model_dir}: {e}")
    print(f"to_gguf: wrote {args.out} ({count} tensors, source {'/'.join(dtypes)}, matrices {args.dtype})")


if __name__ == "__main__":
    main()
