"""MediaPipe 1.2.3's HandLandmarker results on pictures made in memory from hand_thumb_up.png,
for HandLandmarkerPictureTests: the picture mirrored left-right, and the picture side by side with
its mirror image (two hands). Prints the values the tests embed.

usage: ~/.cache/mediapipe-oracle-venv/bin/python scripts/reference/hand_synthetic_expectations.py [SHARED]
"""
import os
import sys

import numpy as np

SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared")
sys.path.insert(0, os.path.join(SHARED, "oracle"))
from common import HAND, HAND_CONFIGS, create, hand_result_dict, load_png  # noqa: E402
import mediapipe as mp  # noqa: E402

_, pixels = load_png(os.path.join(SHARED, "images/decoded/hand_thumb_up.png"))
mirrored = np.ascontiguousarray(pixels[:, ::-1])
side_by_side = np.ascontiguousarray(np.concatenate([pixels, mirrored], axis=1))
for name, array, config in [("mirrored", mirrored, "default"), ("side_by_side", side_by_side, "num_hands_2"),
                            ("side_by_side", side_by_side, "default")]:
    with create("hand", HAND, HAND_CONFIGS[config], "IMAGE") as task:
        result = hand_result_dict(task.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=array)))
    for hand, (side, landmarks, world) in enumerate(zip(result["handedness"], result["hand_landmarks"],
                                                      result["hand_world_landmarks"])):
        points = ", ".join(f"({landmarks[i]['x']!r}, {landmarks[i]['y']!r}, {landmarks[i]['z']!r})" for i in (0, 8))
        print(f"{name} {config} hand {hand}: {side[0]['category_name']} {side[0]['score']!r}; "
              f"landmarks 0, 8: {points}; world 0: ({world[0]['x']!r}, {world[0]['y']!r}, {world[0]['z']!r})")
