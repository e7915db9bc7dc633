#!/bin/bash
# Alternates reranked and --no-rerank runs of couplet batch on the same CSV, one process each.
B=${1:-$(cd "$(dirname "$0")/../../.." && pwd)/build/app/cli/couplet}
for i in 1 2; do
 for mode in rerank norerank; do
  rm -rf /tmp/bb-$mode; mkdir -p /tmp/bb-$mode
  extra=""; [ $mode = norerank ] && extra="--no-rerank"
  s=$(date +%s.%N)
  $B batch docs/judged/2026-12-06/bulk400.csv -o /tmp/bb-$mode/out.csv --seed 1 --threads 2 --quiet --year 2027 $extra >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$mode run $i: $(python3 -c "print(f'{400/($e-$s):.1f} rows/s ({$e-$s:.1f} s)')")"
 done
done
