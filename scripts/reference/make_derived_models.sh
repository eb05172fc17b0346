#!/usr/bin/env bash
# Writes the models the tests derive from ../shared's official files into .build/derived-models
# (never committed; the tests skip without them, and fail in CI when ../shared is present):
#   ssd_mobilenet_v1_raw.tflite              the SSD cut before TFLite_Detection_PostProcess, with
#                                            DETECTOR_METADATA (scripts/reference/make_raw_ssd.py)
#   ssd_mobilenet_v1_raw_no_metadata.tflite  the same graph without metadata
# Needs a Python with mediapipe==1.2.3 (its metadata writer and schema modules): $DERIVE_PYTHON,
# the oracle's venv (~/.cache/mediapipe-oracle-venv) or .venv/derive, made here from PyPI when
# none has it (about 15 s). Both files are the same bytes on every run; their SHA-256 is checked.
set -euo pipefail
cd "$(dirname "$0")/../.."
shared="${VISION_TASKS_SHARED:-../shared}"
source_model="$shared/models/ssd_mobilenet_v1.tflite"
if [ ! -f "$source_model" ]; then
  echo "derived models: $source_model is absent, nothing to derive"
  exit 0
fi

python=""
for candidate in "${DERIVE_PYTHON:-}" "$HOME/.cache/mediapipe-oracle-venv/bin/python" ".venv/derive/bin/python"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" -c "import mediapipe, flatbuffers, numpy" 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "derived models: making .venv/derive (pip install mediapipe==1.2.3)"
  python3 -m venv .venv/derive
  .venv/derive/bin/python -m pip install --quiet --disable-pip-version-check mediapipe==1.2.3
  python=".venv/derive/bin/python"
fi

out=.build/derived-models
mkdir -p "$out"
"$python" scripts/reference/make_raw_ssd.py "$out/ssd_mobilenet_v1_raw.tflite" --source "$source_model" >/dev/null
"$python" scripts/reference/make_raw_ssd.py "$out/ssd_mobilenet_v1_raw_no_metadata.tflite" --source "$source_model" \
  --no-metadata >/dev/null
# The fixtures in Tests/VisionTasksTests/Fixtures/RawSSD are MediaPipe's results on exactly these bytes.
status=0
while read -r expected name; do
  actual="$(sha256sum "$out/$name" | cut -d' ' -f1)"
  if [ "$actual" != "$expected" ]; then
    echo "derived models: $name has sha256 $actual, expected $expected" >&2
    status=1
  fi
done <<'SUMS'
3ddd3fba52a683f6a01b5a0b80e68e87496bd608480af266d79850c4d39d39b9 ssd_mobilenet_v1_raw.tflite
919306b0744390cf097c5db2fffc9b504d6171b425d12f4fb3fe554d87d17ffb ssd_mobilenet_v1_raw_no_metadata.tflite
SUMS
[ "$status" = 0 ] && echo "derived models: $(ls "$out" | tr '\n' ' ')in $out"
exit "$status"
