#!/usr/bin/env bash
# Times the image -> tensor conversion that starts every task (`vision-tasks bench preprocess`,
# release build) on real pictures, and writes the "Image to tensor" section of docs/BENCHMARKS.md
# (between its markers; the rest of the file is left alone). These rows replace the wall-clock
# assertions the tests once made (issue #19): the tests now check the path taken and that no
# allocation happens, and the speed is measured here, with the CPU named.
#
#   scripts/benchmarks/preprocess.sh [IMAGES_DIR]      (default: ../shared/images)
#
# Crops: `rotated` (a landmark model's 256x256 float crop, rotated by 0.4 rad: the general
# sampling path) and `whole` (a detector's input: the whole picture stretched to 300x300 bytes,
# the row-invariant path), each on a 1280x720 video frame and on a 958x1358 photograph.
# Environment: ITERATIONS (conversions per measurement, default 200), ROUNDS (default 5; the table
# shows the median of the round medians and their range), OUT (default docs/BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGES="${1:-../shared/images}"
ITERATIONS="${ITERATIONS:-200}"
ROUNDS="${ROUNDS:-5}"
OUT="${OUT:-docs/BENCHMARKS.md}"

swift build -c release --product vision-tasks >&2
BIN="$(swift build -c release --show-bin-path)/vision-tasks"
RAW="$(mktemp)"
trap 'rm -f "$RAW"' EXIT
LOAD_BEFORE="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"

for round in $(seq "$ROUNDS"); do
  for image in frames/gesture_test_video/000.png decoded/business-person.png; do
    [ -f "$IMAGES/$image" ] || { echo "missing $IMAGES/$image" >&2; exit 1; }
    for crop in rotated whole; do
      echo "round $round: $image $crop" >&2
      json="$("$BIN" bench preprocess "$IMAGES/$image" --crop "$crop" --iterations "$ITERATIONS" --json)"
      echo "{\"round\":$round,\"file\":\"$image\",\"result\":$json}" >> "$RAW"
    done
  done
done

python3 scripts/benchmarks/make_preprocess_table.py "$RAW" "$OUT" --iterations "$ITERATIONS" --rounds "$ROUNDS" \
  --load "$LOAD_BEFORE" "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
echo "wrote the Image to tensor section of $OUT" >&2
