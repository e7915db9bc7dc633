#!/bin/sh
# Bulk CSV benchmark: rows/s and peak memory (VmHWM) of the bulk pipeline.
#   bench/csv_bench.sh BUILD_DIR [MODEL_DIR] [MODEL_ROWS]
# I/O only (instant generator): 10,000, 100,000 and 1,000,000 rows, each in
# its own process, to show that memory stays flat as the input grows.
# With the model: MODEL_ROWS rows (default 10000); 100,000 rows with the real
# model take long on a CPU, so estimate them from the rows/s printed here.
# Writes csv_bench.json (one object per case) in the current folder.
set -eu
build=${1:?usage: csv_bench.sh BUILD_DIR [MODEL_DIR] [MODEL_ROWS]}
model=${2:-}
model_rows=${3:-10000}
io_sizes=${IO_SIZES:-"10000 100000 1000000"}
bench="$build/bench/csv_bench"
work=${TMPDIR:-/tmp}/couplet-csv-bench.$$
json=csv_bench.jsonl
rm -f "$json"
trap 'rm -rf "$work"' EXIT

for rows in $io_sizes; do
    "$bench" --rows "$rows" --dir "$work" --json "$json"
    rm -rf "$work"
done
if [ -n "$model" ]; then
    "$bench" --rows "$model_rows" --model "$model" --dir "$work" --json "$json"
fi

python3 - "$json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
json.dump(rows, open("csv_bench.json", "w"), indent=2)
print(f"{'case':<6} {'rows':>9} {'seconds':>9} {'rows/s':>10} {'VmHWM MiB':>10} {'before job':>10}")
for r in rows:
    print(f"{r['case']:<6} {r['rows']:>9} {r['seconds']:>9.2f} {r['rows_per_second']:>10.1f} "
          f"{r['vmhwm_kib']/1024:>10.1f} {r['vmhwm_before_kib']/1024:>10.1f}")
for r in rows:
    if r['case'] == 'model':
        rate = r['rows_per_second']
        print(f"estimate with this model and device: 100,000 rows in {100000/rate/3600:.1f} h "
              f"({rate:.1f} rows/s)")
PY
rm -f "$json"
