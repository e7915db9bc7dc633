#!/bin/sh
# Builds csv_fuzzer with clang, libFuzzer, ASan and UBSan in its own build
# folder and runs it for a bounded time on a seed corpus from tests/data/csv.
#
# Usage: fuzz/run-fuzzer.sh [seconds]        (default 60)
# Environment: COUPLET_FUZZ_BUILD_DIR (default build-fuzz), CC, CXX.
set -eu

seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${COUPLET_FUZZ_BUILD_DIR:-$root/build-fuzz}
sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"

mkdir -p "$build"
CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCOUPLET_BUILD_FUZZERS=ON -DCOUPLET_BUILD_GUI=OFF -DCOUPLET_BUILD_TESTS=OFF \
    -DCMAKE_CXX_FLAGS="$sanitizers" >"$build/configure.log" 2>&1 \
    || { cat "$build/configure.log"; exit 1; }
nice -n 10 cmake --build "$build" --target csv_fuzzer -j1

# The corpus grows across runs; the fixtures seed it. The first byte of each
# input picks the reader's options: 'd' is detection, ',' and 4 KiB chunks.
corpus="$build/csv-corpus"
mkdir -p "$corpus"
for f in "$root"/tests/data/csv/*; do
    [ -f "$f" ] && { printf 'd'; cat "$f"; } >"$corpus/seed-$(basename "$f")"
done

mkdir -p "$build/csv-crashes"
exec nice -n 10 "$build/fuzz/csv_fuzzer" -max_total_time="$seconds" -max_len=8192 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/csv-crashes/" "$corpus"
