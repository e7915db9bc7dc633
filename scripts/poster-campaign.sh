#!/usr/bin/env bash
# A bulk campaign with posters, killed and resumed: writes a ROWS-row CSV,
# starts `couplet batch --posters`, kills it with SIGKILL once KILL_AT rows are
# committed (the output's rows; a condition, not a timer), resumes it with
# --resume and checks that every ok row has exactly one poster named by its
# id, that nothing else is in the folder (no temporary files) and that every
# input row is in the output once. Prints both runs' summaries and times.
#
#   scripts/poster-campaign.sh [-n ROWS] [-k KILL_AT] [-d WORKDIR] [-f card|print|card,print] [-- BATCH OPTIONS]
#   e.g. scripts/poster-campaign.sh -n 10000 -k 4000 -- --no-rerank
# COUPLET (default build/app/cli/couplet) is the CLI under test.
set -euo pipefail

rows=10000 kill_at=4000 work=/tmp/poster-campaign format=card
while getopts "n:k:d:f:" opt; do
  case $opt in
    n) rows=$OPTARG ;; k) kill_at=$OPTARG ;; d) work=$OPTARG ;; f) format=$OPTARG ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
couplet=${COUPLET:-build/app/cli/couplet}
[ -x "$couplet" ] || { echo "no CLI at $couplet (build it, or set COUPLET)" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work"
python3 - "$work/campaign.csv" "$rows" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
words = ["春风", "福", "平安", "山水", "龙凤", "吉祥", "新年", "团圆", "五福", "金玉满堂"]
with open(path, "w", encoding="utf-8") as f:
    f.write("id,关键词,字数\n")
    for i in range(1, n + 1):
        f.write(f"u{i:07d},{words[i % len(words)]},{7 if i % 3 else 5}\n")
PY

args=(batch "$work/campaign.csv" -o "$work/out.csv" --journal "$work/jobs.sqlite" --posters "$work/posters"
      --poster-format "$format" --resume "$@")
committed() { [ -f "$work/out.csv" ] && python3 -c "import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], encoding='utf-8'))) - 1)" "$work/out.csv" || echo 0; }

start=$(date +%s.%N)
"$couplet" "${args[@]}" 2>"$work/run1.log" &
pid=$!
while kill -0 "$pid" 2>/dev/null && [ "$(committed)" -lt "$kill_at" ]; do sleep 1; done
kill -9 "$pid" 2>/dev/null || { echo "the job ended before $kill_at rows were committed" >&2; exit 1; }
wait "$pid" || true
killed=$(date +%s.%N)
at_kill=$(committed)
pngs_at_kill=$(find "$work/posters" -maxdepth 1 -type f | wc -l)
partial_at_kill=$(find "$work/posters/.partial" -type f 2>/dev/null | wc -l)
echo "killed (SIGKILL) after $(printf %.0f "$(echo "$killed - $start" | bc)") s: $at_kill rows committed, $pngs_at_kill poster files, $partial_at_kill in .partial"

"$couplet" "${args[@]}" 2>"$work/run2.log"
end=$(date +%s.%N)
grep -E "resuming|^done:|^posters" "$work/run2.log" || true
echo "resumed run $(printf %.0f "$(echo "$end - $killed" | bc)") s; both runs $(printf %.0f "$(echo "$end - $start" | bc)") s"

python3 - "$work" "$rows" "$format" <<'PY'
import csv, os, sys
work, n, fmt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
exts = [e for e, f in ((".png", "card"), (".pdf", "print")) if f in fmt]
with open(os.path.join(work, "out.csv"), encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
ids = [r["id"] for r in rows]
assert len(ids) == n and len(set(ids)) == n, f"{len(ids)} output rows, {len(set(ids))} distinct, {n} expected"
expected = {r["id"] + e for r in rows if r["status"] == "ok" and not r["error"].startswith("no poster") for e in exts}
present = set(os.listdir(os.path.join(work, "posters")))
missing, extra = expected - present, present - expected
assert not missing, f"{len(missing)} posters missing, e.g. {sorted(missing)[:5]}"
assert not extra, f"{len(extra)} unexpected entries (temporary files?), e.g. {sorted(extra)[:5]}"
print(f"verified: {n} rows once each; {len(expected)} posters, one per ok row, nothing else in the folder")
PY
