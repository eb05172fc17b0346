#!/usr/bin/env bash
# The live page of `vision-tasks serve` in headless Chromium (scripts/serve/browser_test.py): camera
# frames and a dropped image go through the page, and what it draws on must equal the API's own answer.
# Makes .venv/browser with selenium (from PyPI) when missing and installs nothing else; needs chromium,
# chromedriver and ffmpeg (Debian: chromium chromium-driver ffmpeg), ../shared, and a release build.
#
#   scripts/serve/browser-test.sh [browser_test.py options]   (--help lists them)
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in chromium chromedriver ffmpeg; do
  if ! command -v "$tool" > /dev/null; then
    echo "skipped: $tool not found (Debian: apt-get install chromium chromium-driver ffmpeg)"
    exit 0
  fi
done
if [ ! -d ../shared/models ] || [ ! -d ../shared/images ]; then
  echo "skipped: ../shared (models and images) not found next to the package"
  exit 0
fi
venv=.venv/browser
if ! "$venv/bin/python" -c 'import selenium' 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check selenium
fi
exec "$venv/bin/python" scripts/serve/browser_test.py "$@"
