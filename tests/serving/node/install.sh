#!/bin/sh
# Installs the official OpenAI Node client (npm package `openai`, pinned in
# package.json and package-lock.json) into tests/serving/node/node_modules,
# which git ignores. scripts/install-deps.sh runs it (test_openai_node skips,
# saying so, until it has run).
# Needs node and npm, and the npm registry once.
set -eu
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund
else
    npm install --no-audit --no-fund
fi
