#!/usr/bin/env bash
# Times the public tasks (pose, hands, objects, faces, face-landmarks with and without blendshapes,
# segment) per detect call against MediaPipe's own Python task (PyPI `mediapipe`,
# the oracle's version) on the same image, same machine, same session, and writes the "Tasks"
# section of docs/BENCHMARKS.md (between its markers; the rest of the file is left alone).
#
#   scripts/benchmarks/tasks.sh [MODELS_DIR]     (default: ./Models, else ../shared/models)
#
# Environment: MP_VENV (a venv with mediapipe; default ~/.cache/mediapipe-oracle-venv, see
# ../shared/oracle/setup.sh), IMAGE (default ../shared/images/decoded/business-person.png, else
# Models/astronaut.png), ITERATIONS (default 50), ROUNDS (default 3), OUT (default docs/BENCHMARKS.md).
#
# In each round, mediapipe_bench.py --ours alternates MediaPipe's calls turn for turn with ours at the
# default thread count and at one thread (`vision-tasks bench … --driven`, scripts/benchmarks/
# driven.py), so that each ratio compares calls made under the same machine conditions; the table
# shows the median over the rounds of each side's median and of the per-turn ratios. The segmenter is
# also timed on its own (`bench segment --json`) for the share of its call spent resizing the mask.
set -euo pipefail
cd "$(dirname "$0")/../.."
MODELS="${1:-}"
if [ -z "$MODELS" ]; then
  if [ -f Models/pose_landmarker_lite.task ]; then MODELS=Models; else MODELS=../shared/models; fi
fi
IMAGE="${IMAGE:-../shared/images/decoded/business-person.png}"
[ -f "$IMAGE" ] || IMAGE=Models/astronaut.png
MP_VENV="${MP_VENV:-$HOME/.cache/mediapipe-oracle-venv}"
ITERATIONS="${ITERATIONS:-50}"
ROUNDS="${ROUNDS:-3}"
OUT="${OUT:-docs/BENCHMARKS.md}"

swift build -c release --product vision-tasks >&2
BIN="$(swift build -c release --show-bin-path)/vision-tasks"
RAW="$(mktemp)"
trap 'rm -f "$RAW"' EXIT
LOAD_BEFORE="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"

# task (bench word and MediaPipe task), model file, optional flags for both sides
# (objects: EfficientDet-Lite0 only when the models folder has it; it is not in ../shared/models)
for entry in "pose pose_landmarker_full.task" "pose pose_landmarker_lite.task" "hands hand_landmarker.task" \
             "objects ssd_mobilenet_v1.tflite" "objects efficientdet_lite0.tflite" \
             "faces blaze_face_short_range.tflite" "face-landmarks face_landmarker.task" \
             "face-landmarks face_landmarker.task --blendshapes" "segment selfie_segmenter.tflite"; do
  read -r task model flags <<< "$entry"
  flags="${flags:-}"
  label="$task${flags:+ $flags}"
  [ -f "$MODELS/$model" ] || continue
  for mode in image video; do
    for round in $(seq "$ROUNDS"); do
      echo "$label $model $mode round $round" >&2
      # $flags is unquoted on purpose: empty, or one flag.
      paired="$("$MP_VENV/bin/python" scripts/benchmarks/mediapipe_bench.py "$task" "$IMAGE" --model "$MODELS/$model" \
        --mode "$mode" --iterations "$ITERATIONS" $flags --ours "$BIN" 2>/dev/null)"
      alone=null
      alone1=null
      if [ "$task" = segment ]; then
        alone="$("$BIN" bench "$task" "$IMAGE" --model "$MODELS/$model" --mode "$mode" --iterations "$ITERATIONS" --json)"
        alone1="$("$BIN" bench "$task" "$IMAGE" --model "$MODELS/$model" --mode "$mode" --iterations "$ITERATIONS" \
          --threads 1 --json)"
      fi
      echo "{\"task\":\"$label\",\"model\":\"$model\",\"mode\":\"$mode\",\"paired\":$paired,\"alone\":$alone,\"alone1\":$alone1}" >> "$RAW"
    done
  done
done

python3 scripts/benchmarks/make_tasks_table.py "$RAW" "$OUT" "$(basename "$IMAGE")" \
  "$("$MP_VENV/bin/python" -c 'import mediapipe; print(mediapipe.__version__)' 2>/dev/null || echo '?')" \
  "$LOAD_BEFORE" "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
echo "wrote the Tasks section of $OUT" >&2
