#!/usr/bin/env bash
# Benchmarks llama.cpp on our couplet model, reproducibly: pinned prebuilt
# llama.cpp libraries from npm, their matching headers, our weights as GGUF,
# our benchmark's prompts, one sweep over batch sizes. See README.md.
#
#   bench/llamacpp/run.sh [RESULT.json]
#
# Settings (environment): DTYPE=f32|f16|bf16|q8_0 (weights), KV_TYPE=f16|f32,
# BATCHES=1,2,...,256, STEPS=15, THREADS=2, REPEAT=1, FLASH_ATTN=auto|on|off,
# KV_UNIFIED=0|1, MODEL_DIR=resources/models/default, WORK=build/llamacpp.
set -euo pipefail

readonly NLC_VERSION=3.21.1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${WORK:-$root/build/llamacpp}
model_dir=${MODEL_DIR:-$root/resources/models/default}
dtype=${DTYPE:-f32}
result=${1:-$work/llamacpp-$dtype.json}
mkdir -p "$work"
work=$(cd "$work" && pwd)

say() { printf '== %s\n' "$*"; }

# Nothing of this may land in the tracked tree.
if [[ $work == "$root"/* ]] && ! git -C "$root" check-ignore -q "$work"; then
    echo "run.sh: $work is inside the repository but not git-ignored; set WORK elsewhere" >&2
    exit 1
fi

fetch_packages() {
    local npm_dir=$work/npm
    mkdir -p "$npm_dir"
    for pkg in node-llama-cpp @node-llama-cpp/linux-x64; do
        local tgz=$npm_dir/$(echo "${pkg#@}" | tr / -)-$NLC_VERSION.tgz
        if [[ ! -f $tgz ]]; then
            say "npm pack $pkg@$NLC_VERSION"
            # pack, not install: no install scripts run (node-llama-cpp's would build or download)
            (cd "$npm_dir" && npm pack --silent "$pkg@$NLC_VERSION" >/dev/null)
        fi
        local dest=$work/pkg/$(basename "$pkg")
        if [[ ! -f $dest/package.json ]]; then
            mkdir -p "$dest"
            tar -xzf "$tgz" -C "$dest" --strip-components=1
        fi
    done
}

clone_source() {
    local src=$work/llama.cpp
    if [[ ! -f $src/include/llama.h ]]; then
        say "git clone llama/gitRelease.bundle"
        rm -rf "$src"
        git -c advice.detachedHead=false clone --quiet "$work/pkg/node-llama-cpp/llama/gitRelease.bundle" "$src"
    fi
}

build_bench() {
    local bins=$work/pkg/linux-x64/bins/linux-x64 src=$work/llama.cpp
    if [[ ! -x $work/llama_bench || $here/llama_bench.cpp -nt $work/llama_bench ]]; then
        say "g++ llama_bench.cpp"
        g++ -O2 -std=c++17 -Wall -Wextra -I"$src/include" -I"$src/ggml/include" "$here/llama_bench.cpp" \
            -o "$work/llama_bench" -L"$bins" -l:libllama.v0.4.0.so -l:libggml.v0.4.0.so -l:libggml-base.so \
            -Wl,-rpath,"$bins"
    fi
}

fetch_packages
clone_source
build_bench

bins=$work/pkg/linux-x64/bins/linux-x64
release=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tag"])' \
    "$work/pkg/node-llama-cpp/llama/llama.cpp.info.json")
commit=$(git -C "$work/llama.cpp" rev-parse HEAD)
gguf=$work/couplet-$dtype.gguf
prompts=$work/prompts.txt

say "convert $model_dir ($dtype)"
python3 "$here/to_gguf.py" "$model_dir" "$gguf" --dtype "$dtype"
python3 "$here/prompts.py" "$model_dir" "$prompts"

common=(--model "$gguf" --prompts "$prompts" --lib-dir "$bins" --steps "${STEPS:-15}" --threads "${THREADS:-2}"
        --kv-type "${KV_TYPE:-f16}" --flash-attn "${FLASH_ATTN:-auto}")
[[ ${KV_UNIFIED:-0} == 1 ]] && common+=(--kv-unified)

say "greedy continuations (compare with: couplet generate --greedy ...)"
"$work/llama_bench" "${common[@]}" --dump-greedy 4 --vocab "$model_dir/vocab.txt"

say "sweep -> $result"
"$work/llama_bench" "${common[@]}" --batches "${BATCHES:-1,2,4,8,16,32,64,128,256}" --repeat "${REPEAT:-1}" \
    --json "$result" --meta node_llama_cpp="$NLC_VERSION" --meta llama_cpp_release="$release" \
    --meta llama_cpp_commit="$commit" --meta weights_dtype="$dtype" --meta model_dir="$model_dir" \
    --meta cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
