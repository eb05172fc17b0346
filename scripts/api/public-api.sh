#!/usr/bin/env bash
# Checks the public API of the VisionTasks and PoseDetection products against api/public-api.txt
# (CI runs it through .ci/run, after the tests, on the same build); with --update, writes the file
# instead. The symbol graphs come from the toolchain's own `swift package dump-symbol-graph`;
# scripts/api/list_public_symbols.py lists them and fails on a `public` symbol in a module that is
# not a product.
#
#   scripts/api/public-api.sh [--update]
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=".build/symbolgraph-public"
rm -rf "$DIR" "$(swift build -c release --show-bin-path)/../symbolgraph"
# The README's test build (release, -enable-testing), so that nothing is built again after the tests.
swift package -c release -Xswiftc -enable-testing dump-symbol-graph --minimum-access-level public > "$DIR.log" 2>&1 \
  || { cat "$DIR.log" >&2; exit 1; }
mv "$(swift build -c release --show-bin-path)/../symbolgraph" "$DIR"
if [ "${1:-}" = "--update" ]; then
  python3 scripts/api/list_public_symbols.py "$DIR" --write api/public-api.txt
else
  python3 scripts/api/list_public_symbols.py "$DIR" --check api/public-api.txt
fi
