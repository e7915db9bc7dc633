#!/usr/bin/env bash
# Configures and builds (Release) into build/, or into $COUPLET_BUILD_DIR.
# Extra arguments go to cmake, e.g. -DCOUPLET_BUILD_GUI=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${COUPLET_BUILD_DIR:-build}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOUPLET_BUILD_TESTS=ON "$@"
cmake --build "$dir" -j"$(nproc)"
