#!/usr/bin/env bash
# Both engines in one run, on the same weights, prompts and threads:
# `couplet bench` at each CPU precision, then llama.cpp (run.sh) at each
# weight type, then one table (table.py) of tokens/s and ms per step.
#
#   bench/llamacpp/compare.sh [OUT_DIR]       (default build/llamacpp/compare)
#
# Settings (environment): PRECISIONS="libtorch fp32 bf16 int8",
# DTYPES="f32 bf16 q8_0", THREADS=2, COUPLET=build/app/cli/couplet.
# Stop anything else that uses the CPU first (a trainer: kill -STOP).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build/llamacpp/compare}
couplet=${COUPLET:-$root/build/app/cli/couplet}
threads=${THREADS:-2}
mkdir -p "$out"
[[ -x $couplet ]] || { echo "compare.sh: $couplet is not built (scripts/build.sh)" >&2; exit 1; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load.txt"
for p in ${PRECISIONS:-libtorch fp32 bf16 int8}; do
    echo "== couplet bench --precision $p"
    "$couplet" bench --only sweep,roofline,ttft --threads "$threads" --precision "$p" --json "$out/couplet-$p.json" \
        > "$out/couplet-$p.txt" 2>&1
done
for d in ${DTYPES:-f32 bf16 q8_0}; do
    echo "== llama.cpp $d"
    DTYPE=$d THREADS=$threads "$here/run.sh" "$out/llamacpp-$d.json" > "$out/llamacpp-$d.txt" 2>&1
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
python3 "$here/table.py" "$out" | tee "$out/table.md"
