#!/usr/bin/env bash
# Runs every test of a build folder with CTest and reports skipped tests
# loudly. A build with no tests is an error. With CI=true (set by CI, where
# every dependency is installed) a skipped test fails the run.
#
# Usage: scripts/run-ctest.sh [BUILD_DIR]      (default build)
set -euo pipefail
dir=${1:-build}
out="$dir/ctest-output.txt"
set +e
ctest --test-dir "$dir" --output-on-failure --timeout 900 -j1 --no-tests=error 2>&1 | tee "$out"
status=${PIPESTATUS[0]}
set -e

# Qt Test prints "SKIP   : TestClass::function() reason" and still passes;
# CTest marks tests it could not run "Not Run" or "Skipped".
log="$dir/Testing/Temporary/LastTest.log"
skips=$(grep -h -E '^SKIP +: ' "$log" 2>/dev/null || true)
notrun=$(grep -h -E '\*\*\*(Not Run|Skipped)' "$out" || true)
if [ -n "$skips$notrun" ]; then
  echo "run-ctest: SKIPPED in $dir (a dependency is missing; run scripts/install-deps.sh):"
  printf '%s\n' "$skips" "$notrun" | sed '/^$/d; s/^/  /'
  if [ "${CI:-}" = "true" ]; then
    echo "run-ctest: CI=true and every dependency is installed there: a skip is a failure"
    status=1
  fi
fi
exit "$status"
