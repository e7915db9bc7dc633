#!/usr/bin/env bash
# Installs the Debian 12 packages that build, test and run Couplet Studio.
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config
  libtorch-dev libopenblas0-openmp nlohmann-json3-dev libsqlite3-dev libhiredis-dev redis-server
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqt6sql6-sqlite libgl-dev fonts-arphic-ukai
  xvfb xauth
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
