#!/usr/bin/env bash
# The AppStream metadata the package installs is valid (appstreamcli, without
# the network), names the desktop entry the package installs, and shows
# screenshots that are in the repository's docs/screenshots.
# Usage: check_metainfo.sh APPSTREAMCLI METAINFO SOURCE_DIR
set -euo pipefail
appstreamcli=$1
metainfo=$2
src=$3
"$appstreamcli" validate --no-net "$metainfo"
desktop=$(sed -n 's:.*<launchable type="desktop-id">\(.*\)</launchable>.*:\1:p' "$metainfo")
if [ ! -f "$src/packaging/$desktop" ]; then
  echo "check_metainfo: the launchable $desktop is not packaging/$desktop" >&2
  exit 1
fi
shots=$(sed -n 's:.*<image>.*/\([^/<]*\)</image>.*:\1:p' "$metainfo")
[ -n "$shots" ] || { echo "check_metainfo: no screenshot" >&2; exit 1; }
for shot in $shots; do
  if [ ! -f "$src/docs/screenshots/$shot" ]; then
    echo "check_metainfo: screenshot $shot is not in docs/screenshots" >&2
    exit 1
  fi
done
for lang in Name Comment; do
  grep -q "^$lang\[zh_CN\]=" "$src/packaging/$desktop" || { echo "check_metainfo: $desktop has no $lang[zh_CN]" >&2; exit 1; }
done
echo "check_metainfo: valid, launches $desktop, screenshots: $(echo $shots)"
