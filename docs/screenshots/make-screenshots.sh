#!/bin/sh
# Retakes the README screenshots under Xvfb with the given model:
#   docs/screenshots/make-screenshots.sh [MODEL_DIR] [BUILD_DIR]
# Run from the repository root. Settings, history and the bulk journal go to
# a throw-away folder, so the user's own are untouched. The waits assume a
# machine that is not busy with other work; SLOW=3 triples them.
set -eu
SLOW=${SLOW:-1}

MODEL=${1:-resources/models/default}
BUILD=${2:-build-gui}
APP="$BUILD/app/studio/couplet-studio"
OUT=docs/screenshots
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CONFIG_HOME="$WORK/config" XDG_DATA_HOME="$WORK/data" LANG=C.UTF-8

# A campaign of keyword prompts, as a designer would prepare it: 32,000 rows,
# so that the job is still streaming when the shots are taken (the engine
# writes about a thousand rows a second on two cores).
{
    echo "id,关键词,字数"
    i=1
    for round in $(seq 2000); do
        for k in 五福 龙年 生意 平安 春风 团圆 吉祥 丰收 家和 新春 如意 富贵 书香 山河 梅花 长寿; do
            echo "$i,$k,$((5 + 2 * (i % 2)))"
            i=$((i + 1))
        done
    done
} > "$WORK/campaign.csv"

studio() {
    xvfb-run -a -s "-screen 0 1600x1000x24" "$APP" --model "$MODEL" --device cpu "$@"
}

# (a) The main window while a bulk CSV job streams, with one interactive prompt.
studio --bulk-csv "$WORK/campaign.csv" --prompt 春回大地 --screenshot-delay $((6000 * SLOW)) \
       --screenshot "$OUT/main-window-bulk.png"
# (b) Charts and the tuning panel after about 15 s of load.
studio --bulk-csv "$WORK/campaign.csv" --tab charts --screenshot-delay $((15000 * SLOW)) \
       --screenshot "$OUT/charts-and-tuning.png"
# (c) A generated couplet exported as PNG from the preview.
studio --prompt 五福临门 --screenshot-delay $((10000 * SLOW)) --screenshot "$WORK/window.png" \
       --export-preview "$OUT/preview-export.png"

# (d) The CSV import dialog with its poster options filled in (the widget test
# that checks them saves what it shows; it uses Qt's test settings, not yours).
COUPLET_TEST_SCREENSHOTS="$OUT" xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$BUILD/tests/ui/test_csv_import_dialog" posterChoicesArePassedOnAndRemembered

# Keep each under 400 KB for the README.
for f in "$OUT/main-window-bulk.png" "$OUT/charts-and-tuning.png" "$OUT/preview-export.png"; do
    if [ "$(stat -c %s "$f")" -gt 400000 ]; then
        convert "$f" -resize 80% -strip "$f"
    fi
done
ls -l "$OUT"/*.png
