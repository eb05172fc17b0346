"""How much MediaPipe 1.2.3's own VIDEO-mode hand results move when one colour value of one pixel of the
first frame changes by 1: the noise floor of tracking, against which a re-implementation's video drift is
judged (HandLandmarkerFidelityTests.videoModeFollowsMediaPipeEndToEnd).

usage: ~/.cache/mediapipe-oracle-venv/bin/python scripts/reference/hand_video_sensitivity.py [SHARED]
Prints, per perturbation, the largest difference to reference/video/hand_landmarker/hand_test_video.json
(default options) over all 30 frames: landmarks x/y, world landmarks, handedness score.
"""
import glob
import json
import os
import sys

import numpy as np

SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared")
sys.path.insert(0, os.path.join(SHARED, "oracle"))
from common import HAND, HAND_CONFIGS, create, hand_result_dict, load_png  # noqa: E402
import mediapipe as mp  # noqa: E402

reference = json.load(open(os.path.join(SHARED, "reference/video/hand_landmarker/hand_test_video.json")))
frames = [load_png(f)[1].copy() for f in sorted(glob.glob(os.path.join(SHARED, "images/frames/hand_test_video/*.png")))]


def run(row, column, channel):
    results = []
    with create("hand", HAND, HAND_CONFIGS["default"], "VIDEO") as task:
        for index, pixels in enumerate(frames):
            pixels = pixels.copy()
            if index == 0 and row is not None:
                value = int(pixels[row, column, channel])
                pixels[row, column, channel] = value + 1 if value < 255 else 254
            image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(pixels))
            results.append(hand_result_dict(task.detect_for_video(image, index * 33)))
    return results


def largest_differences(results):
    xy = world = score = 0.0
    for expected, ours in zip(reference["runs"]["default"]["frames"], results):
        for a, b in zip(ours["hand_landmarks"], expected["hand_landmarks"]):
            xy = max([xy] + [max(abs(p["x"] - q["x"]), abs(p["y"] - q["y"])) for p, q in zip(a, b)])
        for a, b in zip(ours["hand_world_landmarks"], expected["hand_world_landmarks"]):
            world = max([world] + [abs(p[k] - q[k]) for p, q in zip(a, b) for k in "xyz"])
        for a, b in zip(ours["handedness"], expected["handedness"]):
            score = max(score, abs(a[0]["score"] - b[0]["score"]))
    return xy, world, score


for label, where in [("unchanged", (None, None, None)), ("pixel (0, 0) red + 1", (0, 0, 0)),
                     ("pixel (320, 180) green + 1", (180, 320, 1)), ("pixel (639, 359) blue + 1", (359, 639, 2))]:
    xy, world, score = largest_differences(run(*where))
    print(f"{label:28s} landmarks {xy:.6f}  world {world:.6f}  handedness score {score:.6f}")
