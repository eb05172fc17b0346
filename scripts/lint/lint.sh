#!/usr/bin/env bash
# Style checks by machine (CI runs this through .ci/run): the toolchain's own `swift format lint
# --strict` with the committed .swift-format (4-space indentation, 120 columns), and no Swift line
# longer than 120 characters, comments and string literals included (swift-format does not break
# those). `swift format -i -r -p Sources Tests Examples Fuzz Package.swift` fixes most of what it reports.
#
#   scripts/lint/lint.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
swift format lint --strict -r -p Sources Tests Examples Fuzz Package.swift
# Characters, not bytes (× and — are one character each), whatever the locale.
long="$(git ls-files -z '*.swift' | python3 -c '
import sys
for path in sys.stdin.read().split("\0"):
    if path:
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            if len(line.rstrip("\n")) > 120:
                print(f"{path}:{number}: {len(line.rstrip(chr(10)))} characters")
')"
if [ -n "$long" ]; then
  echo "$long" >&2
  echo "lines longer than 120 characters: $(echo "$long" | wc -l)" >&2
  exit 1
fi
echo "lint: swift format --strict clean, no line over 120 characters" >&2
