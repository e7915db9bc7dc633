#!/usr/bin/env bash
# Installs the Debian packages, builds, and starts Couplet Studio on the
# shipped model. Arguments are passed to the app (e.g. --device cpu).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
exec build/app/studio/couplet-studio --model resources/models/default "$@"
