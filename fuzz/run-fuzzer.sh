#!/bin/sh
# Builds a fuzzer with clang, libFuzzer, ASan and UBSan in its own build
# folder and runs it for a bounded time on a seed corpus.
#
# Usage: fuzz/run-fuzzer.sh [seconds] [csv|serving]     (default 60 csv)
#   csv      the CSV reader and encoding detection, seeded from tests/data/csv
#   serving  the server's request parser (JSON bodies, Chinese prompts)
# Environment: COUPLET_FUZZ_BUILD_DIR (default build-fuzz), CC, CXX.
set -eu

seconds=${1:-60}
target=${2:-csv}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${COUPLET_FUZZ_BUILD_DIR:-$root/build-fuzz}
sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
case "$target" in csv|serving) ;; *) echo "run-fuzzer.sh: unknown target '$target' (csv or serving)" >&2; exit 2 ;; esac

mkdir -p "$build"
CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCOUPLET_BUILD_FUZZERS=ON -DCOUPLET_BUILD_GUI=OFF -DCOUPLET_BUILD_TESTS=OFF \
    -DCMAKE_CXX_FLAGS="$sanitizers" >"$build/configure.log" 2>&1 \
    || { cat "$build/configure.log"; exit 1; }
nice -n 10 cmake --build "$build" --target "${target}_fuzzer" -j1

# The corpus grows across runs; fixtures seed it.
corpus="$build/$target-corpus"
mkdir -p "$corpus"
if [ "$target" = csv ]; then
    # The first byte of each input picks the reader's options: 'd' is detection, ',' and 4 KiB chunks.
    for f in "$root"/tests/data/csv/*; do
        [ -f "$f" ] && { printf 'd'; cat "$f"; } >"$corpus/seed-$(basename "$f")"
    done
else
    # The first byte picks the parser: '0' completions body, '1' chat body, '2' a prompt.
    printf '0{"prompt":["生成一副关于家庭和睦、喜迎新春的七言春联，横批阖家欢乐","上联：春回大地千山秀"],"n":2,"stream":true}' >"$corpus/seed-completion"
    printf '0{"prompt":"关于春节","couplet":{"mode":"acrostic","acrostic":"春福","length":5,"keywords":["龙年"]}}' >"$corpus/seed-couplet"
    printf '1{"messages":[{"role":"system","content":"x"},{"role":"user","content":[{"type":"text","text":"藏头春福的五言春联"}]}]}' >"$corpus/seed-chat"
    printf '2以春福二字藏头写一副适合贴在店铺门口的九言对联，主题是生意兴隆和财源广进，横批：万象更新' >"$corpus/seed-prompt"
fi

mkdir -p "$build/$target-crashes"
exec nice -n 10 "$build/fuzz/${target}_fuzzer" -max_total_time="$seconds" -max_len=8192 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/$target-crashes/" "$corpus"
