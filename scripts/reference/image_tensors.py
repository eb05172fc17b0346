"""Exports golden image -> tensor conversions for Tests/ImagingTests (Golden/tensors.json).

Each case is taken from a real pipeline (pose detector, pose landmarks, palm detector, hand
landmarks, SSD object detector): an image of ../shared/images/decoded, a normalized rect, a
tensor size, keep-aspect-ratio, border mode and value range. The tensor is computed with a
replica of MediaPipe's CPU ImageToTensorCalculator (mediapipe/calculators/tensor/
image_to_tensor_converter_opencv.cc):

  cv::RotatedRect -> cv::boxPoints -> cv::getPerspectiveTransform to the tensor corners ->
  cv::warpPerspective(INTER_LINEAR, BORDER_CONSTANT 0 | BORDER_REPLICATE) on 8-bit pixels ->
  convertTo(float, scale = (max - min) / 255, offset = min)

MediaPipe 1.2.3 links an OpenCV whose warpPerspective is the classic fixed-point one (inverse map
rounded to 1/32 pixel, 15-bit bilinear weights). The opencv-python in the oracle venv (5.1) has a
newer float implementation that differs by up to 3 levels, so the warp is replicated explicitly:
the inverse map is computed as OpenCV's WarpPerspectiveInvoker does (double arithmetic, blocks of
up to 64 columns) and handed to cv2.remap as fixed-point maps (CV_16SC2 + CV_16UC1), which runs
the classic remapBilinear. With --verify-mediapipe every case the ImageEmbedder can express is
also run through the real MediaPipe (image_identity_model.py) and must match bit for bit.

Stored per case (small, deterministic): the rect, the tensor spec, the letterbox padding and
MATRIX, checksums of the whole float tensor (mean, sum of absolute values), an FNV-1a 64 hash
of the whole 8-bit tensor, and every 61st 8-bit value.

usage: image_tensors.py [--shared DIR] [--out FILE] [--verify-mediapipe]
Run with the oracle venv: ~/.cache/mediapipe-oracle-venv/bin/python
"""
import argparse
import json
import math
import os
import sys
import tempfile

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
F32 = np.float32
SAMPLE_STRIDE = 61


def rect(x_center, y_center, width, height, rotation=0.0):
    return {"x_center": float(F32(x_center)), "y_center": float(F32(y_center)),
            "width": float(F32(width)), "height": float(F32(height)), "rotation": float(F32(rotation))}


def pixel_square_rect(image_size, x_center, y_center, width, rotation):
    """A rect whose pixel width equals its pixel height, as the landmark ROIs are."""
    w, h = image_size
    return rect(x_center, y_center, width, F32(width) * F32(w) / F32(h), rotation)


def embedder_rect(image_size, region, rotation_degrees):
    """NormalizedRect as base_vision_task_api.h ConvertToNormalizedRect builds it."""
    w, h = image_size
    left, top, right, bottom = (F32(v) for v in (region or (0.0, 0.0, 1.0, 1.0)))
    x_center = F32((float(left) + float(right)) / 2.0) if region else F32(0.5)
    y_center = F32((float(top) + float(bottom)) / 2.0) if region else F32(0.5)
    width = F32(right - left) if region else F32(1.0)
    height = F32(bottom - top) if region else F32(1.0)
    rotation = F32(-rotation_degrees * math.pi / 180.0)
    if abs(rotation_degrees) % 180 != 0:
        width, height = F32(height * F32(h) / F32(w)), F32(width * F32(w) / F32(h))
    return rect(x_center, y_center, width, height, rotation)


# (name, image, rect or (region, rotation_degrees) for the embedder, width, height, keep, border, range)
def cases(sizes):
    c = []

    def add(name, image, r, tensor, keep, border, value_range, tensor_type="float32", embedder=None):
        c.append({"name": name, "image": image, "rect": r,
                  "tensor": {"width": tensor[0], "height": tensor[1], "keep_aspect_ratio": keep,
                             "border": border, "range": list(value_range), "type": tensor_type},
                  "embedder": embedder})

    full = rect(0.5, 0.5, 1.0, 1.0)
    # Pose detector: whole image, letterboxed to 224x224, zero border, [-1, 1].
    for image in ("business-person", "astronaut", "hand_test_image"):
        add(f"pose_detector_{image}", image, full, (224, 224), True, "zero", (-1.0, 1.0))
    # Pose detector on an image shown with orientation .right, MediaPipe's way (r = 3pi/2,
    # size swapped and rescaled; ../shared/spec/PIPELINES.md 1.2).
    w, h = sizes["business-person"]
    add("pose_detector_business-person_right", "business-person",
        rect(0.5, 0.5, F32(1.0) * F32(h) / F32(w), F32(1.0) * F32(w) / F32(h), F32(3 * math.pi / 2)),
        (224, 224), True, "zero", (-1.0, 1.0))
    # Pose landmarks: rotated pixel-square ROI, 256x256, replicate, [0, 1].
    add("pose_landmarks_business-person", "business-person",
        pixel_square_rect(sizes["business-person"], 0.52, 0.50, 0.95, 0.18), (256, 256), False, "replicate",
        (0.0, 1.0))
    add("pose_landmarks_astronaut_outside", "astronaut",
        pixel_square_rect(sizes["astronaut"], 0.45, 0.62, 0.9, -0.35), (256, 256), False, "replicate",
        (0.0, 1.0))
    # Palm detector: whole image, letterboxed to 192x192, zero border, [0, 1].
    for image in ("hand_test_image", "hand_thumb_up"):
        add(f"palm_detector_{image}", image, full, (192, 192), True, "zero", (0.0, 1.0))
    # Hand landmarks: rotated pixel-square ROI, 224x224, replicate, [0, 1]; the rotation of the
    # upstream expected palm rect (hand_detector_result_one_hand.pbtxt) and one reaching outside.
    add("hand_landmarks_hand_test_image", "hand_test_image",
        pixel_square_rect(sizes["hand_test_image"], 0.55, 0.48, 0.45, -2.374725), (224, 224), False,
        "replicate", (0.0, 1.0))
    add("hand_landmarks_hand_thumb_up_outside", "hand_thumb_up",
        pixel_square_rect(sizes["hand_thumb_up"], 0.62, 0.15, 0.6, 0.3), (224, 224), False, "replicate",
        (0.0, 1.0))
    # SSD object detector: whole image stretched to 300x300, replicate, uint8.
    for image in ("od_test_image", "grace_hopper"):
        add(f"ssd_{image}", image, embedder_rect(sizes[image], None, 0), (300, 300), False, "replicate",
            (0.0, 255.0), "uint8", embedder=(None, 0))
    # Cases the ImageEmbedder can run too: a region plus a quarter turn, a half turn, a gray image.
    region = (0.1, 0.2, 0.7, 0.9)
    add("embedder_od_test_image_region_rot90", "od_test_image",
        embedder_rect(sizes["od_test_image"], region, 90), (256, 256), False, "replicate", (0.0, 1.0),
        embedder=(region, 90))
    add("embedder_camera_rot270", "camera", embedder_rect(sizes["camera"], None, 270), (224, 224), False,
        "replicate", (-1.0, 1.0), embedder=(None, 270))
    add("embedder_hand_thumb_up_rot180", "hand_thumb_up", embedder_rect(sizes["hand_thumb_up"], None, 180),
        (192, 192), False, "replicate", (0.0, 1.0), embedder=(None, 180))
    # Seeded random crops on small tensors: any rotation, non-square tensors, widths below the
    # 64-column block, regions far outside the image, both borders, letterbox on and off.
    rng = np.random.default_rng(20240611)
    for index in range(24):
        image = ("astronaut", "hand_thumb_up", "od_test_image")[index % 3]
        size = (int(rng.integers(8, 97)), int(rng.integers(8, 97)))
        r = rect(rng.uniform(-0.2, 1.2), rng.uniform(-0.2, 1.2), rng.uniform(0.02, 1.6), rng.uniform(0.02, 1.6),
                 rng.uniform(-7.0, 7.0))
        add(f"random_{index:02d}_{image}", image, r, size, bool(rng.integers(0, 2)),
            ("zero", "replicate")[int(rng.integers(0, 2))], (-1.0, 1.0) if index % 2 else (0.0, 1.0))
    return c


def crop_geometry(image_size, r, tensor):
    """GetRoi + PadRoi (image_to_tensor_utils.cc), in float32."""
    w, h = image_size
    cx, cy = F32(r["x_center"]) * F32(w), F32(r["y_center"]) * F32(h)
    rw, rh = F32(r["width"]) * F32(w), F32(r["height"]) * F32(h)
    padding = [F32(0)] * 4
    if tensor["keep_aspect_ratio"]:
        tensor_aspect = F32(tensor["height"]) / F32(tensor["width"])
        roi_aspect = rh / rw
        if tensor_aspect > roi_aspect:
            rh = rw * tensor_aspect
            v = (F32(1) - roi_aspect / tensor_aspect) / F32(2)
            padding = [F32(0), v, F32(0), v]
        else:
            rw = rh / tensor_aspect
            hp = (F32(1) - tensor_aspect / roi_aspect) / F32(2)
            padding = [hp, F32(0), hp, F32(0)]
    return (cx, cy, rw, rh, F32(r["rotation"])), padding


def matrix_output(image_size, roi):
    """GetRotatedSubRectToRectTransformMatrix (no flip), in float32."""
    w, h = image_size
    cx, cy, a, b, rotation = roi
    c, d = F32(math.cos(float(rotation))), F32(math.sin(float(rotation)))
    g, hh = F32(1) / F32(w), F32(1) / F32(h)
    half = F32(0.5)
    m = [F32(0)] * 16
    m[0] = a * c * g
    m[1] = -b * d * g
    m[3] = (-half * a * c + half * b * d + cx) * g
    m[4] = a * d * hh
    m[5] = b * c * hh
    m[7] = (-half * b * c - half * a * d + cy) * hh
    m[10] = a * g
    m[15] = F32(1)
    return [float(v) for v in m]


def classic_warp(rgb, roi, width, height, border):
    """MediaPipe's cv::warpPerspective call, with OpenCV's classic fixed-point bilinear path."""
    cx, cy, rw, rh, rotation = roi
    degrees = float(F32(rotation * F32(180))) / math.pi
    corners = cv2.boxPoints(((float(cx), float(cy)), (float(rw), float(rh)), degrees)).astype(np.float32)
    targets = np.array([[0, height], [0, 0], [width, 0], [width, height]], np.float32)
    forward = cv2.getPerspectiveTransform(corners, targets)
    ok, m = cv2.invert(forward)
    assert ok
    block_height = min(16, height)
    block_width = min(1024 // block_height, width)
    columns = np.arange(width)
    block_start = (columns // block_width) * block_width
    step = (columns - block_start).astype(np.float64)[None, :]
    start = block_start.astype(np.float64)[None, :]
    rows = np.arange(height, dtype=np.float64)[:, None]
    x0 = m[0, 0] * start + m[0, 1] * rows + m[0, 2]
    y0 = m[1, 0] * start + m[1, 1] * rows + m[1, 2]
    w0 = m[2, 0] * start + m[2, 1] * rows + m[2, 2]
    w = w0 + m[2, 0] * step
    with np.errstate(divide="ignore"):
        w = np.where(w != 0, 32.0 / w, 0.0)
    limit_low, limit_high = float(np.iinfo(np.int32).min), float(np.iinfo(np.int32).max)
    fx = np.maximum(limit_low, np.minimum(limit_high, (x0 + m[0, 0] * step) * w))
    fy = np.maximum(limit_low, np.minimum(limit_high, (y0 + m[1, 0] * step) * w))
    ix = np.rint(fx).astype(np.int64)
    iy = np.rint(fy).astype(np.int64)
    xy = np.stack([np.clip(ix >> 5, -32768, 32767), np.clip(iy >> 5, -32768, 32767)], axis=-1).astype(np.int16)
    fractions = ((iy & 31) * 32 + (ix & 31)).astype(np.uint16)
    mode = cv2.BORDER_CONSTANT if border == "zero" else cv2.BORDER_REPLICATE
    return cv2.remap(rgb, xy, fractions, cv2.INTER_LINEAR, borderMode=mode, borderValue=(0, 0, 0, 0))


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data.tobytes():
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def load_rgb(shared, name):
    path = os.path.join(shared, "images", "decoded", name + ".png")
    bgr = cv2.imread(path, cv2.IMREAD_COLOR)
    if bgr is None:
        sys.exit(f"cannot read {path}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.abspath(os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests", "ImagingTests", "Golden", "tensors.json"))
    ap.add_argument("--verify-mediapipe", action="store_true",
                    help="check every embedder-expressible case against MediaPipe itself")
    a = ap.parse_args()

    names = ["business-person", "astronaut", "hand_test_image", "hand_thumb_up", "od_test_image",
             "grace_hopper", "camera"]
    images = {n: load_rgb(a.shared, n) for n in names}
    sizes = {n: (img.shape[1], img.shape[0]) for n, img in images.items()}
    models = {}
    temp = tempfile.mkdtemp(prefix="image_tensors_")
    out_cases = []
    for case in cases(sizes):
        rgb = images[case["image"]]
        tensor = case["tensor"]
        width, height = tensor["width"], tensor["height"]
        roi, padding = crop_geometry(sizes[case["image"]], case["rect"], tensor)
        warped = classic_warp(rgb, roi, width, height, tensor["border"])
        low, high = (F32(v) for v in tensor["range"])
        scale = (high - low) / F32(255)
        values = warped.astype(np.float32) * scale + low
        verified = False
        if a.verify_mediapipe and case["embedder"] is not None:
            from image_identity_model import identity_model, mediapipe_tensor
            key = (height, width)
            if key not in models:
                models[key] = os.path.join(temp, f"identity_{height}x{width}.tflite")
                with open(models[key], "wb") as f:
                    f.write(identity_model(height, width))
            region, degrees = case["embedder"]
            reference = mediapipe_tensor(models[key], rgb, height, width, region, degrees)
            differing = int(np.count_nonzero(reference != warped))
            if differing:
                sys.exit(f"{case['name']}: replica differs from MediaPipe in {differing} values")
            verified = True
        flat = warped.reshape(-1)
        out_cases.append({
            "name": case["name"],
            "image": f"images/decoded/{case['image']}.png",
            "rect": case["rect"],
            "tensor": tensor,
            "letterbox_padding": [float(v) for v in padding],
            "matrix": matrix_output(sizes[case["image"]], roi),
            "verified_with_mediapipe": verified,
            "checksums": {
                "mean": float(values.astype(np.float64).mean()),
                "abs_sum": float(np.abs(values.astype(np.float64)).sum()),
                "uint8_fnv1a64": fnv1a64(flat),
            },
            "sample_stride": SAMPLE_STRIDE,
            "samples_uint8_hex": flat[::SAMPLE_STRIDE].tobytes().hex(),
        })
        print(f"{case['name']:45s} {width}x{height} mean {values.mean():+.5f}"
              f"{'  (= MediaPipe)' if verified else ''}")
    document = {
        "generator": "scripts/reference/image_tensors.py",
        "reference": "MediaPipe ImageToTensorCalculator CPU path (OpenCV classic fixed-point warpPerspective)",
        "opencv_python": cv2.__version__,
        "cases": out_cases,
    }
    with open(a.out, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
