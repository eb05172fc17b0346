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
# Models/astronaut.png), ITERATIONS (default 50), ROUNDS (default 3: ours and MediaPipe
# alternate, the table shows the median of the round medians), OUT (default docs/BENCHMARKS.md).
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
      ours="$("$BIN" bench "$task" "$IMAGE" --model "$MODELS/$model" --mode "$mode" --iterations "$ITERATIONS" $flags --json)"
      ours1="$("$BIN" bench "$task" "$IMAGE" --model "$MODELS/$model" --mode "$mode" --iterations "$ITERATIONS" $flags \
        --threads 1 --json)"
      mediapipe="$("$MP_VENV/bin/python" scripts/benchmarks/mediapipe_bench.py "$task" "$IMAGE" --model "$MODELS/$model" \
        --mode "$mode" --iterations "$ITERATIONS" $flags 2>/dev/null)"
      echo "{\"task\":\"$label\",\"model\":\"$model\",\"mode\":\"$mode\",\"ours\":$ours,\"ours1\":$ours1,\"mediapipe\":$mediapipe}" >> "$RAW"
    done
  done
done

python3 scripts/benchmarks/make_tasks_table.py "$RAW" "$OUT" "$(basename "$IMAGE")" \
  "$("$MP_VENV/bin/python" -c 'import mediapipe; print(mediapipe.__version__)' 2>/dev/null || echo '?')" \
  "$LOAD_BEFORE" "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
echo "wrote the Tasks section of $OUT" >&2
