#!/usr/bin/env bash
# Prints unedited examples of the shipped model in every mode, as Markdown
# table rows, for MODEL_CARD.md. Usage: scripts/model-examples.sh [couplet binary] [model dir]
set -euo pipefail
bin=${1:-build/app/cli/couplet}
model=${2:-resources/models/default}
run() {
  local mode=$1; shift
  "$bin" generate --model "$model" --json "$@" |
    python3 -c 'import json,sys; m=sys.argv[1]; a=" ".join(sys.argv[2:])
for c in json.load(sys.stdin): print("| %s | `%s` | %s | %s | %s |" % (m, a, c["upper"], c["lower"], c["hengpi"]))' "$mode" "$@"
}
echo "| mode | options | 上联 | 下联 | 横批 |"
echo "|---|---|---|---|---|"
run keywords --keywords 五福 --seed 1
run keywords --keywords 龙年 --seed 2
run keywords --keywords 家和 --seed 3
run keywords --keywords "龙年 生意" --seed 4
run keywords --keywords 平安 --length 5 --seed 5
run keywords --keywords 春风 --length 9 --seed 6
run keywords --keywords 财源 --length 0 --seed 7
run keywords --keywords 团圆 --tone --seed 8
run keywords --keywords 新春 --hengpi 万象更新 --seed 9
run keywords --keywords 书香 --free-hengpi --seed 10
run upper --upper 春回大地千山秀 --seed 11
run upper --upper 天增岁月人增寿 --seed 12
run upper --upper 一帆风顺年年好 --seed 13
run upper --upper 瑞雪兆丰年 --seed 14
run upper --upper 爆竹声声辞旧岁 --greedy
run upper --upper 和顺一门有百福 --greedy
run acrostic --acrostic 春福 --length 7 --seed 17
run acrostic --acrostic 吉祥 --length 5 --seed 18
run acrostic --acrostic 金玉 --length 7 --tone --seed 19
run keywords --keywords 福 --count 3 --seed 20
