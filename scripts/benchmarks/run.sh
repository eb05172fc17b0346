#!/usr/bin/env bash
# Reproduces docs/BENCHMARKS.md in one run: our engine (vision-tasks bench-model, release build)
# and LiteRT (ai-edge-litert, XNNPACK) on the same models (the eight float models of the bundles,
# the quantized ssd_mobilenet_v1, blaze_face_short_range and selfie_segmenter), same machine, same
# session; then the tasks against MediaPipe's Python task (scripts/benchmarks/tasks.sh: pose,
# hands, objects, faces, face-landmarks, segment).
#
# Each script owns one section of the file per host kind, between its markers (<!-- models:begin
# … HOST --> … <!-- models:end HOST --> here, HOST naming the CPU model and the kernels'
# instruction set; tasks:, scaling: and preprocess: likewise for the others): a run replaces its
# host's sections and adds them after the other hosts' when the host is new; the rest of the file
# is left as it is.
#
#   scripts/benchmarks/run.sh [MODELS_DIR]      (default: ./Models, else ../shared/models)
#
# The measurements run in ROUNDS rounds; in each round every model is timed with our engine and
# LiteRT alternating invoke for invoke, at 1 and at 2 threads, so that both sides see the same
# machine conditions. The table reports the median of the round medians and of the per-invoke ratios.
#
# Environment: VENV (a Python venv with ai-edge-litert==2.3.0 and numpy; created in .venv/bench
# when missing), ITERATIONS (invokes per measurement, default 100), ROUNDS (default 5),
# OUT (default docs/BENCHMARKS.md), TASKS (0 skips the tasks section), SCALING (0 skips the
# two-thread scaling section of scripts/benchmarks/scaling.py), PREPROCESS (0 skips the image to
# tensor section of scripts/benchmarks/preprocess.sh), HIDE_AVX512 (1: on an AVX-512 machine, time
# the AVX2 paths of both sides: scripts/benchmarks/hide_avx512.c is preloaded into every measured
# process, our engine then runs its AVX2 kernels and LiteRT's and MediaPipe's XNNPACK its FMA3
# ones; every section gets its own host kind, "…, avx2 kernels, AVX-512 hidden").
set -euo pipefail
cd "$(dirname "$0")/../.."
MODELS="${1:-}"
if [ -z "$MODELS" ]; then
  if [ -f Models/pose_landmarker_lite.task ]; then MODELS=Models; else MODELS=../shared/models; fi
fi
ITERATIONS="${ITERATIONS:-100}"
ROUNDS="${ROUNDS:-5}"
OUT="${OUT:-docs/BENCHMARKS.md}"
VENV="${VENV:-.venv/bench}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check ai-edge-litert==2.3.0 numpy
fi

swift build -c release --product vision-tasks >&2
BIN="$(swift build -c release --show-bin-path)/vision-tasks"
RAW="$(mktemp)"
trap 'rm -f "$RAW" "${FMA_PEAK:-}"; rm -rf "${SHIM_DIR:-}"' EXIT
if [ "${HIDE_AVX512:-0}" = 1 ]; then
  SHIM_DIR="$(mktemp -d)"
  "${CC:-cc}" -O2 -shared -fPIC -o "$SHIM_DIR/hide_avx512.so" scripts/benchmarks/hide_avx512.c -ldl
  # Every process from here on, ours, the Python peers and the table scripts, sees no AVX-512;
  # the shim exits with status 3 where the CPU or kernel cannot hide it.
  export LD_PRELOAD="$SHIM_DIR/hide_avx512.so" HIDE_AVX512=1
  env true  # a first process under the shim: stops the run here when it cannot hide AVX-512
fi

# bundle:member, or a plain .tflite followed by ':' (the quantized SSD of the Object Detector,
# the Face Detector's BlazeFace, the Image Segmenter's selfie model).
ENTRIES="pose_landmarker_full.task:pose_detector.tflite pose_landmarker_full.task:pose_landmarks_detector.tflite
pose_landmarker_lite.task:pose_detector.tflite pose_landmarker_lite.task:pose_landmarks_detector.tflite
hand_landmarker.task:hand_detector.tflite hand_landmarker.task:hand_landmarks_detector.tflite
face_landmarker.task:face_landmarks_detector.tflite face_landmarker.task:face_blendshapes.tflite
ssd_mobilenet_v1.tflite: blaze_face_short_range.tflite: selfie_segmenter.tflite:"

echo "{\"side\":\"machine\",\"loadBefore\":\"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)\"}" >> "$RAW"
# One core's FMA peak (scripts/benchmarks/fma_peak.c), before and after the rounds, for the share
# of peak each model reaches at one thread.
FMA_PEAK="$(mktemp)"
fma_peak() {
  if "${CC:-cc}" -O2 -o "$FMA_PEAK" scripts/benchmarks/fma_peak.c 2>/dev/null; then
    echo "{\"side\":\"machine\",\"fmaPeak\":$("$FMA_PEAK")}" >> "$RAW"
  fi
}
fma_peak
# Multiply-adds of each model (`inspect --json`).
for entry in $ENTRIES; do
  file="${entry%%:*}"; member="${entry##*:}"
  [ -f "$MODELS/$file" ] || continue
  "$BIN" inspect "$MODELS/$file" --json | python3 -c '
import json, sys
file, member = sys.argv[1], sys.argv[2] or None
info = json.load(sys.stdin)
for model in info.get("models", [info]):
    if member is None or model.get("name") == member:
        print(json.dumps({"side": "macs", "model": file, "member": member, "macs": model.get("macs")}))
        break
' "$file" "$member" >> "$RAW"
done
# Each round times every model with both engines turn for turn (scripts/benchmarks/litert_bench.py
# --ours drives `vision-tasks bench-model … --driven`: two invokes of ours, the second timed, then two
# of LiteRT, and so on), at 1 and then 2 threads, so that each ratio compares invokes made under the
# same machine conditions.
for round in $(seq 1 "$ROUNDS"); do
  echo "{\"side\":\"machine\",\"round\":$round,\"load\":\"$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)\"}" >> "$RAW"
  for entry in $ENTRIES; do
    file="${entry%%:*}"; member="${entry##*:}"
    [ -f "$MODELS/$file" ] || continue
    echo "round $round: $file:$member" >&2
    member_args=()
    if [ -n "$member" ]; then member_args=(--member "$member"); fi
    "$VENV/bin/python" scripts/benchmarks/litert_bench.py "$MODELS" --iterations "$ITERATIONS" --threads 1,2 \
        --model "$file" "${member_args[@]}" --ours "$BIN" 2>/dev/null \
      | sed "s/^/{\"side\":\"pair\",\"round\":$round,\"result\":/; s/\$/}/" >> "$RAW"
  done
done
echo "{\"side\":\"machine\",\"loadAfter\":\"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)\"}" >> "$RAW"
fma_peak
# Where one thread's time goes: `bench-model --profile` (median ms per operator type).
for entry in $ENTRIES; do
  file="${entry%%:*}"; member="${entry##*:}"
  [ -f "$MODELS/$file" ] || continue
  member_args=()
  if [ -n "$member" ]; then member_args=(--member "$member"); fi
  "$BIN" bench-model "$MODELS/$file" "${member_args[@]}" --threads 1 --iterations "$ITERATIONS" --profile 2>&1 \
    | python3 -c '
import json, sys
file, member = sys.argv[1], sys.argv[2] or None
ops = {}
for line in sys.stdin:
    parts = line.split()
    if len(parts) == 3 and parts[2] == "ms":
        ops[parts[0]] = float(parts[1])
print(json.dumps({"side": "profile", "model": file, "member": member, "ops": ops}))
' "$file" "$member" >> "$RAW"
done

"$VENV/bin/python" scripts/benchmarks/make_table.py "$RAW" --iterations "$ITERATIONS" --rounds "$ROUNDS" --out "$OUT"
echo "wrote the model and memory section of $OUT" >&2

# The tasks against MediaPipe's Python task, as their own section of the same file (TASKS=0
# skips them).
if [ "${TASKS:-1}" != 0 ]; then
  OUT="$OUT" ITERATIONS="$ITERATIONS" scripts/benchmarks/tasks.sh "$MODELS"
fi

# Two-thread scaling of our engine alone, with alternating 1T/2T runs (SCALING=0 skips it).
if [ "${SCALING:-1}" != 0 ]; then
  "$VENV/bin/python" scripts/benchmarks/scaling.py "$MODELS" --python "$VENV/bin/python" --out "$OUT"
fi

# The image -> tensor conversion alone (PREPROCESS=0 skips it).
if [ "${PREPROCESS:-1}" != 0 ] && [ -d ../shared/images ]; then
  OUT="$OUT" scripts/benchmarks/preprocess.sh ../shared/images
fi
