#!/usr/bin/env bash
# Both engines in one run, on the same weights, prompts and threads:
# `couplet bench` at each CPU precision and llama.cpp (run.sh) at each
# weight type, taking turns, then one table (table.py) of tokens/s and ms
# per step.
#
#   bench/llamacpp/compare.sh [OUT_DIR]       (default build/llamacpp/compare)
#
# Settings (environment): PRECISIONS="int8 bf16 fp32 libtorch",
# DTYPES="q8_0 bf16 f32", THREADS=2, COUPLET=build/app/cli/couplet.
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
ours() {
    echo "== couplet bench --precision $1 ($(date -u +%H:%M:%S))"
    "$couplet" bench --only sweep,roofline,ttft --threads "$threads" --precision "$1" --json "$out/couplet-$1.json" \
        > "$out/couplet-$1.txt" 2>&1
}
theirs() {
    echo "== llama.cpp $1 ($(date -u +%H:%M:%S))"
    DTYPE=$1 THREADS=$threads "$here/run.sh" "$out/llamacpp-$1.json" > "$out/llamacpp-$1.txt" 2>&1
}
# The engines take turns (int8 then q8_0, bf16 then bf16, ...), so that a
# slow moment of a shared host falls on both rather than on one engine's
# whole segment (session 10: one run's int8 segment ran 40% slow).
read -r -a ps <<< "${PRECISIONS:-int8 bf16 fp32 libtorch}"
read -r -a ds <<< "${DTYPES:-q8_0 bf16 f32}"
n=$(( ${#ps[@]} > ${#ds[@]} ? ${#ps[@]} : ${#ds[@]} ))
for ((i = 0; i < n; i++)); do
    if (( i < ${#ps[@]} )); then ours "${ps[i]}"; fi
    if (( i < ${#ds[@]} )); then theirs "${ds[i]}"; fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
python3 "$here/table.py" "$out" | tee "$out/table.md"
