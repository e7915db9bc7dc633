#!/usr/bin/env bash
# One short, prepared run on a lent GPU machine (DEVELOPERS.md: about 15
# minutes of device time per session, all calls together; PyTorch 2.x with
# CUDA, no Qt, no network). Everything it learns goes under $OUT:
#
#   deps.txt        what the headless build needs, found or missing (first: a
#                   missing -dev package stops the build, and this says which)
#   nvidia-smi.txt  the GPU
#   build.log       the headless build against PyTorch's libtorch
#   ctest.txt       the tests (the model tests pick the GPU with --device auto)
#   bench-cuda.*    couplet bench --device cuda (fp16), table and JSON
#   eval-cuda.txt   couplet eval --greedy on the validation split, on the GPU
#   train/          with TRAIN_MINUTES=N: a larger model trained for N minutes
#
#   OUT=/tmp/out scripts/gpu-check.sh            (on the device: OUT is set)
#   TRAIN_MINUTES=6 TRAIN_ARGS="--dim 384 --layers 6 --heads 6" scripts/gpu-check.sh
#
# Each step runs under its own time limit and the next runs whatever the
# last gave, so that one failure still leaves the rest's results.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-/tmp/couplet-gpu}
mkdir -p "$out"
build=${COUPLET_BUILD_DIR:-build-gpu}
jobs=$(nproc)
# The training data: ../shared/data beside the checkout, or shared/data inside it.
data=${DATA:-../shared/data}
[[ -d $data ]] || data=shared/data
step() { echo "== $1 ($(date -u +%H:%M:%S))" | tee -a "$out/steps.txt"; }

step deps
{
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' 2>&1
    for pc in hiredis cpp-httplib openssl; do
        if pkg-config --exists "$pc" 2>/dev/null; then echo "$pc: found"; else echo "$pc: MISSING (pkg-config)"; fi
    done
    for h in nlohmann/json.hpp sqlite3.h; do
        if echo "#include <$h>" | c++ -E -x c++ - >/dev/null 2>&1; then echo "$h: found"; else echo "$h: MISSING"; fi
    done
    for tool in cmake c++ ninja nvidia-smi; do
        if command -v "$tool" >/dev/null; then echo "$tool: $(command -v "$tool")"; else echo "$tool: MISSING"; fi
    done
    echo "data: $data"; ls "$data" 2>&1 | head -5
} > "$out/deps.txt" 2>&1
cat "$out/deps.txt"
nvidia-smi > "$out/nvidia-smi.txt" 2>&1

step build
prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
timeout 300 cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCOUPLET_BUILD_GUI=OFF \
    -DCOUPLET_BUILD_TESTS=ON -DCMAKE_PREFIX_PATH="$prefix" > "$out/build.log" 2>&1 &&
    timeout 420 cmake --build "$build" -j"$jobs" >> "$out/build.log" 2>&1
echo "build exit $?" | tee -a "$out/steps.txt"
cli=$build/app/cli/couplet
if [[ ! -x $cli ]]; then
    tail -40 "$out/build.log"
    exit 1
fi

step ctest
(cd "$build" && timeout 240 ctest --output-on-failure -j4) > "$out/ctest.txt" 2>&1
tail -5 "$out/ctest.txt"

step bench
timeout 240 "$cli" bench --device cuda --only sweep,roofline,ttft --json "$out/bench-cuda.json" \
    > "$out/bench-cuda.txt" 2>&1
tail -20 "$out/bench-cuda.txt"

step eval
timeout 120 "$cli" eval --device cuda --data "$data" --greedy > "$out/eval-cuda.txt" 2>&1
tail -12 "$out/eval-cuda.txt"

if [[ -n ${TRAIN_MINUTES:-} ]]; then
    step "train ${TRAIN_MINUTES} min"
    mkdir -p "$out/train"
    # shellcheck disable=SC2086 # TRAIN_ARGS is a list of flags
    timeout $((TRAIN_MINUTES * 60 + 120)) "$cli" train --data "$data" --out "$out/train/run" --device cuda \
        --minutes "$TRAIN_MINUTES" ${TRAIN_ARGS:-} > "$out/train/train.log" 2>&1
    "$cli" train --out "$out/train/run" --export "$out/train/model" >> "$out/train/train.log" 2>&1
    rm -rf "$out/train/run/checkpoint"
    tail -8 "$out/train/train.log"
fi
step finished
