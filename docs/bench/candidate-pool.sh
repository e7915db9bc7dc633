#!/bin/bash
# The candidate pool's cost, one run: interactive requests through `couplet serve` (its default
# 5 ms batching window included) with the pool of 16 (the default) against the old 4 per couplet
# (best_of 4 and 12), alternating; then bulk rows/s of `couplet batch` on docs/judged/2026-12-06/bulk400.csv
# with the bulk default (4), --candidates 16 and --no-rerank, alternating. Run from the repository root.
set -euo pipefail
B=${1:-build/app/cli/couplet}
PORT=${PORT:-8766}
"$B" serve --port "$PORT" --threads 2 >/tmp/pool-serve.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s "localhost:$PORT/health" >/dev/null && break; sleep 0.2; done
ask() { curl -s -o /dev/null -w "%{time_total}" "localhost:$PORT/v1/completions" -H 'content-type: application/json' -d "$1"; }
for i in $(seq 40); do
  echo "pool16-n1 $(ask "{\"prompt\":\"关于五福的七言春联\",\"n\":1,\"seed\":$i}")"
  echo "old4-n1 $(ask "{\"prompt\":\"关于五福的七言春联\",\"n\":1,\"best_of\":4,\"seed\":$i}")"
  echo "pool16-n3 $(ask "{\"prompt\":\"关于五福的七言春联\",\"n\":3,\"seed\":$i}")"
  echo "old4-n3 $(ask "{\"prompt\":\"关于五福的七言春联\",\"n\":3,\"best_of\":12,\"seed\":$i}")"
done > /tmp/pool-latency.txt
kill $SERVER; trap - EXIT
python3 - <<'PY'
import collections
d = collections.defaultdict(list)
for line in open('/tmp/pool-latency.txt'):
    k, t = line.split(); d[k].append(1000 * float(t))
print('| request | sampled | p50 ms | p95 ms |\n|---|---:|---:|---:|')
for k, sampled in (('old4-n1', 4), ('pool16-n1', 16), ('old4-n3', 12), ('pool16-n3', 16)):
    v = sorted(d[k]); print(f'| {k} | {sampled} | {v[len(v)//2]:.0f} | {v[int(0.95*len(v))-1]:.0f} |')
PY
for i in 1 2; do
  for mode in bulk4 bulk16 norerank; do
    rm -rf "/tmp/pool-$mode"; mkdir -p "/tmp/pool-$mode"
    extra=(); [ $mode = bulk16 ] && extra=(--candidates 16); [ $mode = norerank ] && extra=(--no-rerank)
    s=$(date +%s.%N)
    "$B" batch docs/judged/2026-12-06/bulk400.csv -o "/tmp/pool-$mode/out.csv" --seed 1 --threads 2 --quiet --year 2027 "${extra[@]}" >/dev/null 2>&1
    e=$(date +%s.%N)
    echo "$mode run $i: $(python3 -c "print(f'{400/($e-$s):.1f} rows/s ({$e-$s:.1f} s)')")"
  done
done
