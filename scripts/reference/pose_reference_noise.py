#!/usr/bin/env python3
"""Measures how far MediaPipe's own pose results move when one input pixel changes by one
least significant bit, for every case the PoseLandmarker fidelity tests compare, and writes
Tests/VisionTasksTests/PoseLandmarker/PoseReferenceNoise.swift.

Why: MediaPipe's pose pipeline is not well-conditioned everywhere. A landmark whose heatmap
confidence sits at the 0.5 refinement threshold jumps by up to ~0.01 when the input changes in
its last bits, and in VIDEO mode the tracked region of each frame comes from the previous
frame's landmarks, so such differences grow by roughly two orders of magnitude per frame
(measured: flipping one bit of one corner pixel in every frame moves MediaPipe's own
landmarks by up to 0.6 after a few frames, and changes the pose count on some frames). An
implementation that does not reproduce XNNPACK's float arithmetic bit for bit cannot follow
MediaPipe there, however exact its pipeline is. The tests therefore compare each value only
where MediaPipe itself is reproducible: where this measured spread is at most half the
tolerance.

For each case (IMAGE mode: model x image x option set; VIDEO mode: sequence x option set x
frame) the task runs on the unchanged pixels (which must reproduce ../shared/reference exactly)
and on 8 copies with one bit of one channel of one pixel flipped (a fixed position per copy;
in VIDEO mode the same position in every frame). Per pose landmark it records the largest
change of max(|dx|, |dy|), |dz|, the world landmark (max over x, y, z), visibility and
presence; per pose the change of the mask mean; and whether the pose count stayed the same.

Usage: ~/.cache/mediapipe-oracle-venv/bin/python scripts/reference/pose_reference_noise.py [SHARED_DIR]
"""
import base64
import glob
import json
import os
import struct
import sys

import numpy as np

SHARED = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared"))
sys.path.insert(0, os.path.join(SHARED, "oracle"))
import mediapipe as mp  # noqa: E402
from common import POSE_CONFIGS, POSE_VIDEO_CONFIGS, create, load_png  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "../../Tests/VisionTasksTests/PoseLandmarker/PoseReferenceNoise.swift")
FRAME_MS = 33
UNSTABLE = 1e9  # the count changed: nothing of this case is comparable


def positions(h, w):
    """Eight fixed (row, column, channel) positions spread over the image."""
    return [(0, 0, 0), (h - 1, w - 1, 1), (h // 2, w // 2, 2), (h // 3, w // 3, 0),
            (2 * h // 3, 2 * w // 3, 1), (h // 3, 2 * w // 3, 2), (2 * h // 3, w // 3, 0), (h // 2, w // 4, 1)]


def flipped(pixels, position):
    if position is None:
        return pixels
    copy = pixels.copy()
    y, x, c = position
    copy[y, x, c] ^= 1
    return copy


def summary(result):
    """Per pose: 33 x (x, y, z, wx, wy, wz, visibility, presence) and the mask mean."""
    poses = []
    masks = result.segmentation_masks or []
    for index, (lms, world) in enumerate(zip(result.pose_landmarks, result.pose_world_landmarks)):
        values = [(l.x, l.y, l.z, w.x, w.y, w.z, l.visibility or 0, l.presence or 0) for l, w in zip(lms, world)]
        mean = float(np.array(masks[index].numpy_view()).mean()) if index < len(masks) else 0.0
        poses.append((np.array(values, dtype=np.float64), mean))
    return poses


def spread(base, others):
    """The encoded record of one case: [count stable, pose count, per pose 33 x 5 spreads, mask spread]."""
    stable = all(len(o) == len(base) for o in others)
    record = [1.0 if stable else 0.0, float(len(base))]
    for pose, (values, mean) in enumerate(base):
        if not stable:
            record += [UNSTABLE] * (33 * 5 + 1)
            continue
        worst = np.zeros((33, 5))
        mask = 0.0
        for other in others:
            delta = np.abs(other[pose][0] - values)
            worst[:, 0] = np.maximum(worst[:, 0], delta[:, 0:2].max(axis=1))
            worst[:, 1] = np.maximum(worst[:, 1], delta[:, 2])
            worst[:, 2] = np.maximum(worst[:, 2], delta[:, 3:6].max(axis=1))
            worst[:, 3] = np.maximum(worst[:, 3], delta[:, 6])
            worst[:, 4] = np.maximum(worst[:, 4], delta[:, 7])
            mask = max(mask, abs(other[pose][1] - mean))
        record += list(worst.ravel()) + [mask]
    return record


def check(base, reference, label):
    """The unchanged run must be MediaPipe's reference result."""
    expected = reference["pose_landmarks"]
    assert len(base) == len(expected), label
    for (values, _), pose in zip(base, expected):
        got = values[:, 0:3]
        want = np.array([(l["x"], l["y"], l["z"]) for l in pose])
        assert np.abs(got - want).max() < 1e-6, label


def image_cases():
    records = {}
    for task in ["pose_landmarker_full", "pose_landmarker_lite"]:
        model = os.path.join(SHARED, "models", task + ".task")
        for path in sorted(glob.glob(os.path.join(SHARED, "reference", task, "*.json"))):
            doc = json.load(open(path))
            pixels = np.array(load_png(os.path.join(SHARED, doc["image"]["decoded_png"]))[1])
            h, w = pixels.shape[:2]
            for config in sorted(doc["runs"]):
                with create("pose", model, POSE_CONFIGS[config], "IMAGE") as landmarker:
                    def run(position):
                        image = mp.Image(image_format=mp.ImageFormat.SRGB,
                                         data=np.ascontiguousarray(flipped(pixels, position)))
                        return summary(landmarker.detect(image))
                    base = run(None)
                    label = f"{task}/{doc['image']['name']}/{config}"
                    check(base, doc["runs"][config]["result"], label)
                    records[label] = spread(base, [run(p) for p in positions(h, w)])
                print(label, file=sys.stderr)
    return records


def video_cases():
    records = {}
    model = os.path.join(SHARED, "models", "pose_landmarker_full.task")
    for path in sorted(glob.glob(os.path.join(SHARED, "reference", "video", "pose_landmarker_full", "*.json"))):
        doc = json.load(open(path))
        files = sorted(glob.glob(os.path.join(SHARED, doc["video"]["frames_png_dir"], "*.png")))
        frames = [np.array(load_png(f)[1]) for f in files]
        h, w = frames[0].shape[:2]
        for config in POSE_VIDEO_CONFIGS:
            def run(position):
                with create("pose", model, POSE_CONFIGS[config], "VIDEO") as landmarker:
                    out = []
                    for index, pixels in enumerate(frames):
                        image = mp.Image(image_format=mp.ImageFormat.SRGB,
                                         data=np.ascontiguousarray(flipped(pixels, position)))
                        out.append(summary(landmarker.detect_for_video(image, index * FRAME_MS)))
                    return out
            base = run(None)
            others = [run(p) for p in positions(h, w)]
            for index in range(len(frames)):
                label = f"video/{doc['video']['name']}/{config}/{index}"
                check(base[index], doc["runs"][config]["frames"][index], label)
                records[label] = spread(base[index], [o[index] for o in others])
            print(doc["video"]["name"], config, file=sys.stderr)
    return records


def main():
    records = {**image_cases(), **video_cases()}
    lines = [
        "// Generated by scripts/reference/pose_reference_noise.py from MediaPipe 1.2.3 and ../shared; do not edit.",
        "",
        "/// MediaPipe's own spread under one-bit input changes, per fidelity case (see the script).",
        "///",
        "/// Key: `<task>/<image>/<option set>` (IMAGE mode) or `video/<sequence>/<option set>/<frame>`.",
        "/// Value: base64 of little-endian float32 values: [pose count stable (1 or 0), pose count,",
        "/// then per pose 33 × (xy, z, world, visibility, presence) and the mask mean's spread].",
        "enum PoseReferenceNoise {",
        "    static let records: [String: String] = [",
    ]
    for key in sorted(records):
        data = base64.b64encode(struct.pack(f"<{len(records[key])}f", *records[key])).decode()
        lines.append(f'        "{key}": "{data}",')
    lines += ["    ]", "}", ""]
    with open(OUT, "w") as handle:
        handle.write("\n".join(lines))
    print(f"wrote {os.path.normpath(OUT)} ({len(records)} cases)", file=sys.stderr)


if __name__ == "__main__":
    main()
