#!/bin/sh
# Draws pose (with its mask), hands, objects, faces and a face mesh on pictures from ../shared and puts them side by
# side in out/screenshot.png — the README's "screenshot". out/ is not committed: the picture is
# derived from ../shared, whose files must not enter the repository.
#
# usage: scripts/annotated-screenshot.sh [SHARED_DIR]   (default: ../shared next to the package)
set -eu
cd "$(dirname "$0")/.."
shared=${1:-../shared}
for file in models/pose_landmarker_full.task models/hand_landmarker.task models/ssd_mobilenet_v1.tflite \
            models/blaze_face_short_range.tflite models/face_landmarker.task images/decoded/business-person.png \
            images/decoded/hand_test_image.png images/decoded/od_test_image.png images/decoded/grace_hopper.png \
            images/decoded/astronaut.png; do
    [ -f "$shared/$file" ] || { echo "error: $shared/$file not found" >&2; exit 1; }
done
config=${CONFIG:-release}   # CONFIG=debug reuses a debug build
swift build -c "$config" --product vision-tasks
tool=$(swift build -c "$config" --show-bin-path)/vision-tasks
work=out/screenshot-parts
mkdir -p "$work"
"$tool" pose "$shared/images/decoded/business-person.png" --model "$shared/models/pose_landmarker_full.task" \
    --segmentation --annotate "$work" > "$work/pose.jsonl"
"$tool" hands "$shared/images/decoded/hand_test_image.png" --model "$shared/models/hand_landmarker.task" \
    --num-hands 2 --annotate "$work" > "$work/hands.jsonl"
"$tool" objects "$shared/images/decoded/od_test_image.png" --model "$shared/models/ssd_mobilenet_v1.tflite" \
    --max-results 5 --score-threshold 0.4 --annotate "$work" > "$work/objects.jsonl"
"$tool" faces "$shared/images/decoded/grace_hopper.png" --model "$shared/models/blaze_face_short_range.tflite" \
    --annotate "$work" > "$work/faces.jsonl"
"$tool" face-landmarks "$shared/images/decoded/astronaut.png" --model "$shared/models/face_landmarker.task" \
    --annotate "$work" > "$work/face-landmarks.jsonl"
if command -v ffmpeg > /dev/null; then
    # Same height for the five, side by side.
    ffmpeg -v error -y -i "$work/business-person.png" -i "$work/hand_test_image.png" -i "$work/od_test_image.png" \
        -i "$work/grace_hopper.png" -i "$work/astronaut.png" \
        -filter_complex "[0]scale=-2:540[a];[1]scale=-2:540[b];[2]scale=-2:540[c];[3]scale=-2:540[d];[4]scale=-2:540[e];[a][b][c][d][e]hstack=inputs=5" \
        -frames:v 1 out/screenshot.png
    echo "wrote out/screenshot.png (parts in $work)"
else
    echo "wrote the annotated pictures to $work (install ffmpeg to get them side by side in out/screenshot.png)"
fi
