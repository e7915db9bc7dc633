#!/usr/bin/env bash
# Every string the app shows has a zh_CN translation: lupdate reads the
# sources into a copy of the shipped .ts file; a string it marks unfinished
# (new, or changed since it was translated) fails the test, listed by source.
# Usage: check_translations.sh LUPDATE SOURCE_DIR
set -euo pipefail
lupdate=$1
src=$2
ts=$src/translations/couplet_studio_zh_CN.ts
copy=$(mktemp --suffix=.ts)
trap 'rm -f "$copy"' EXIT
cp "$ts" "$copy"
"$lupdate" -silent -no-obsolete -locations none "$src/ui" "$src/app" "$src/engine" -ts "$copy"
missing=$(grep -B1 'type="unfinished"' "$copy" | sed -n 's:.*<source>\(.*\)</source>.*:\1:p' || true)
if [ -n "$missing" ]; then
  echo "check_translations: these strings have no zh_CN translation in translations/couplet_studio_zh_CN.ts"
  echo "(run: lupdate -no-obsolete -locations none ui app engine -ts translations/couplet_studio_zh_CN.ts, then translate):"
  printf '  %s\n' "$missing"
  exit 1
fi
echo "check_translations: every string of ui/, app/ and engine/ is translated ($(grep -c '<message' "$copy") messages)"
