#!/usr/bin/env bash
# Installs the Debian packages that build, test and run Couplet Studio, on
# Debian 12 (bookworm) and Debian 13 (trixie). scripts/check-fresh-debian.sh
# proves the list on a clean root of either release.
# Safe to run again: only missing packages are asked for.
set -euo pipefail
packages=(
  # the compiler and the build
  g++ cmake ninja-build pkg-config
  # cpack -G DEB: dpkg-shlibdeps reads the binaries' library dependencies
  dpkg-dev file
  # core: libtorch on OpenBLAS (without it Debian's libtorch runs on the
  # reference BLAS, about 18x slower), JSON, SQLite
  libtorch-dev libopenblas0-openmp nlohmann-json3-dev libsqlite3-dev
  # the HTTP server, the Redis queue worker and its tests (which start their
  # own redis-server), oneDNN
  libcpp-httplib-dev libhiredis-dev redis-server libdnnl-dev
  # Traditional characters: OpenCC (its s2t/s2tw/s2twp/s2hk configurations
  # are in libopencc-data, its dictionaries in libopencc1.1, both pulled in by
  # libopencc-dev on Debian 12 and 13)
  libopencc-dev
  # the AppStream metadata's test (appstreamcli validate)
  appstream
  # Qt 6; Qt6Charts needs Qt6OpenGL, which qt6-charts-dev does not pull in
  # without recommends on Debian 12 (on 13 qt6-base-dev provides it)
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqt6opengl6-dev libqt6sql6-sqlite libgl-dev fonts-arphic-ukai
  xvfb xauth
  # fuzz/run-fuzzer.sh: clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-dev
  # test_openai_node: the official OpenAI Node client (npm package, below) against the server
  nodejs npm
)
# Installed packages and what they provide (a name can be virtual on one
# release and real on the other), one name a line.
present=$(dpkg-query -W -f='${Status}|${Package},${Provides}\n' 2>/dev/null \
  | sed -n 's/^install ok installed|//p' | tr ',' '\n' | sed 's/(.*//; s/ //g')
missing=()
for p in "${packages[@]}"; do
  grep -qxF "$p" <<<"$present" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
else
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install as root: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The OpenAI Node client that test_openai_node runs (pinned in
# tests/serving/node/package-lock.json; from the npm registry once, into the
# git-ignored tests/serving/node/node_modules), so that no test is skipped.
if [ ! -f "$(dirname "$0")/../tests/serving/node/node_modules/openai/package.json" ]; then
  echo "install-deps: installing the OpenAI Node client for test_openai_node"
  "$(dirname "$0")/../tests/serving/node/install.sh"
fi
