#!/usr/bin/env bash
# Builds the DocC documentation of the two products, VisionTasks and PoseDetection, into
# .build/docs/VisionTasks.doccarchive and .build/docs/PoseDetection.doccarchive, with the
# toolchain's own tools only (`swift package dump-symbol-graph` and `docc`; no SwiftPM plugin).
# CI runs it through .ci/run, after the tests, on the same build.
#
# Fails (exit status 1) when a public symbol of either product has no doc comment
# (scripts/docs/check_doc_comments.py) or when docc warns about anything, such as a symbol link
# that does not resolve (`--warnings-as-errors`). Both checks run before the script fails, so one
# run reports everything.
#
#   scripts/docs/build.sh            # DOCC=/path/to/docc to use another docc
set -euo pipefail
cd "$(dirname "$0")/../.."

MODULES=(VisionTasks PoseDetection)
GRAPHS=".build/symbolgraph-docs"
OUT=".build/docs"

if [ -z "${DOCC:-}" ]; then
  if command -v xcrun >/dev/null 2>&1; then
    DOCC="$(xcrun --find docc)"
  else
    DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
  fi
fi
[ -x "$DOCC" ] || { echo "error: no docc at $DOCC (set DOCC)" >&2; exit 1; }

# The symbol graphs of the README's test build (release, -enable-testing), so that nothing is built
# again after the tests. They land in <bin>/../symbolgraph, which scripts/api/public-api.sh moves
# away: copy what is needed, one folder per module (docc takes one module per catalog).
BIN="$(swift build -c release --show-bin-path)"
rm -rf "$GRAPHS" "$BIN/../symbolgraph"
mkdir -p "$GRAPHS"
swift package -c release -Xswiftc -enable-testing dump-symbol-graph --minimum-access-level public > "$GRAPHS.log" 2>&1 \
  || { cat "$GRAPHS.log" >&2; exit 1; }
# Imaging: the home of the two types VisionTasks re-exports, for the doc comment check only.
for module in "${MODULES[@]}" Imaging; do
  mkdir -p "$GRAPHS/$module"
  cp "$BIN/../symbolgraph/$module.symbols.json" "$GRAPHS/$module/"
  for extension in "$BIN/../symbolgraph/$module"@*.symbols.json; do
    if [ -e "$extension" ]; then cp "$extension" "$GRAPHS/$module/"; fi
  done
done

status=0
python3 scripts/docs/check_doc_comments.py "$GRAPHS" || status=1

rm -rf "$OUT"
mkdir -p "$OUT"
for module in "${MODULES[@]}"; do
  if "$DOCC" convert "Sources/$module/$module.docc" \
      --additional-symbol-graph-dir "$GRAPHS/$module" \
      --fallback-display-name "$module" \
      --fallback-bundle-identifier "$module" \
      --output-path "$OUT/$module.doccarchive" \
      --warnings-as-errors; then
    echo "docs: $OUT/$module.doccarchive" >&2
  else
    echo "error: docc reported problems in the documentation of $module (see above)" >&2
    status=1
  fi
done
exit "$status"
