#!/usr/bin/env python3
"""Recomputes the RawSSD fixtures (make_raw_ssd_reference.py) without MediaPipe, to pin down the
exact post-processing MediaPipe 1.2.3 applies to a two-output SSD, and checks them entry by entry.

usage: check_raw_ssd_reference.py MODEL FIXTURE_DIR [--shared DIR]
  (run with ~/.cache/mediapipe-oracle-venv/bin/python; MODEL = make_raw_ssd.py's output)

The pipeline modelled here:
  1. model input: the whole image stretched to 300x300 (no letterbox), MediaPipe's fixed-point
     warpPerspective, border replicate (image_tensors.py's replica); uint8, no normalization;
  2. inference with LiteRT (XNNPACK, like MediaPipe) -> location [1917,4], score [1917,90];
  3. TensorsToDetections, per anchor in anchor order: the best allowed class (first maximum, strict >;
     allow/deny lists by label), dropped if its score < score_threshold; box decoded in float32 as
     YXHW: yc = ty / 10 * ah + ay, xc = tx / 10 * aw + ax, h = exp(th / 5) * ah, w = exp(tw / 5) * aw,
     relative box (xmin = xc - w/2, ymin = yc - h/2, width = xmax - xmin, height = ymax - ymin);
  4. NonMaxSuppression: the candidates' (index, score) pairs sorted by score descending with libc++'s
     std::sort (NOT stable: equal scores, frequent with uint8 scores, come out in the order that exact
     algorithm leaves them; libstdc++'s introsort or a stable sort give different detections), then
     greedy IoU > 0.3 suppression against the kept boxes, stop at max_results;
  5. pixel boxes: x, y, width, height each truncated toward zero and clamped to [0, image size] on its
     own; detections with identical pixel boxes merge (none do in these fixtures).
It reproduces every fixture entry exactly (7 images x 6 option sets, and the 60 VIDEO frames).
"""
import argparse
import glob
import json
import math
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
F32 = np.float32


# ------------------------------------------------------------------ libc++ std::sort
def libcxx_sort(items, less):
    """The order libc++ (LLVM >= 17) std::sort leaves `items` in, for a comparator that is not one of
    its "simple" ones (MediaPipe passes a function): introsort with median-of-3 pivots (ninther above
    128 elements), pdq-style partitions (equal elements to the right; to the left when the pivot equals
    the element before the range), insertion sort below 24 elements and sorting networks up to 5,
    plus the early exit on already partitioned ranges (insertion sort allowing 8 moves)."""
    a = list(items)

    def swap(i, j):
        a[i], a[j] = a[j], a[i]

    def sort3(x, y, z):
        if not less(a[y], a[x]):
            if not less(a[z], a[y]):
                return
            swap(y, z)
            if less(a[y], a[x]):
                swap(x, y)
            return
        if less(a[z], a[y]):
            swap(x, z)
            return
        swap(x, y)
        if less(a[z], a[y]):
            swap(y, z)

    def sort_n(idx):                    # 4 or 5 elements: sort3, then insert the rest one by one
        sort3(idx[0], idx[1], idx[2])
        for k in range(3, len(idx)):
            j = k
            while j > 0 and less(a[idx[j]], a[idx[j - 1]]):
                swap(idx[j], idx[j - 1])
                j -= 1

    def small(f, n):
        if n == 2:
            if less(a[f + 1], a[f]):
                swap(f, f + 1)
        elif n == 3:
            sort3(f, f + 1, f + 2)
        elif n in (4, 5):
            sort_n(list(range(f, f + n)))

    def insertion(f, l, guarded):
        for i in range(f + 1, l):
            if less(a[i], a[i - 1]):
                t = a[i]
                j = i
                while True:
                    a[j] = a[j - 1]
                    j -= 1
                    if (guarded and j == f) or not less(t, a[j - 1]):
                        break
                a[j] = t

    def insertion_incomplete(f, l):
        n = l - f
        if n <= 5:
            small(f, n)
            return True
        sort3(f, f + 1, f + 2)
        moves = 0
        for i in range(f + 3, l):
            if less(a[i], a[i - 1]):
                t = a[i]
                j = i
                while True:
                    a[j] = a[j - 1]
                    j -= 1
                    if j == f or not less(t, a[j - 1]):
                        break
                a[j] = t
                moves += 1
                if moves == 8:
                    return i + 1 == l
        return True

    def partition_right(f, l):
        begin, pivot = f, a[f]
        f += 1
        while less(a[f], pivot):
            f += 1
        if begin == f - 1:
            while f < l:
                l -= 1
                if less(a[l], pivot):
                    break
        else:
            l -= 1
            while not less(a[l], pivot):
                l -= 1
        already = f >= l
        while f < l:
            swap(f, l)
            f += 1
            while less(a[f], pivot):
                f += 1
            l -= 1
            while not less(a[l], pivot):
                l -= 1
        p = f - 1
        a[begin] = a[p]
        a[p] = pivot
        return p, already

    def partition_left(f, l):
        begin, pivot = f, a[f]
        f += 1
        if less(pivot, a[l - 1]):
            while not less(pivot, a[f]):
                f += 1
        else:
            while f < l and not less(pivot, a[f]):
                f += 1
        if f < l:
            l -= 1
            while less(pivot, a[l]):
                l -= 1
        while f < l:
            swap(f, l)
            f += 1
            while not less(pivot, a[f]):
                f += 1
            l -= 1
            while less(pivot, a[l]):
                l -= 1
        p = f - 1
        a[begin] = a[p]
        a[p] = pivot
        return f

    def introsort(f, l, depth, leftmost):
        while True:
            n = l - f
            if n <= 5:
                small(f, n)
                return
            if n < 24:
                insertion(f, l, guarded=leftmost)
                return
            if depth == 0:
                raise RuntimeError("libc++ heap-sort fallback reached (not modelled)")
            depth -= 1
            half = n // 2
            if n > 128:
                sort3(f, f + half, l - 1)
                sort3(f + 1, f + half - 1, l - 2)
                sort3(f + 2, f + half + 1, l - 3)
                sort3(f + half - 1, f + half, f + half + 1)
                swap(f, f + half)
            else:
                sort3(f + half, f, l - 1)
            if not leftmost and not less(a[f - 1], a[f]):
                f = partition_left(f, l)
                continue
            p, already = partition_right(f, l)
            if already:
                left_done = insertion_incomplete(f, p)
                if insertion_incomplete(p + 1, l):
                    if left_done:
                        return
                    l = p
                    continue
                if left_done:
                    f = p + 1
                    continue
            introsort(f, p, depth, leftmost)
            leftmost = False
            f = p + 1

    if len(a) > 1:
        introsort(0, len(a), 2 * (len(a).bit_length() - 1), True)
    return a


# ------------------------------------------------------------------ the pipeline
class RawSSD:
    def __init__(self, model_path):
        from ai_edge_litert.interpreter import Interpreter
        sys.path.insert(0, HERE)
        import make_raw_ssd as R
        src, _, self.labels = R.read_source(R.DEFAULT_SOURCE)
        self.anchors, self.opts, self.num_classes = R.derive_graph(src)   # y, x, h, w (float32)
        self.interpreter = Interpreter(model_path=model_path)
        self.interpreter.allocate_tensors()

    def model_input(self, rgb):
        import image_tensors as IT
        h, w = rgb.shape[:2]
        roi, _ = IT.crop_geometry((w, h), IT.embedder_rect((w, h), None, 0),
                                  {"width": 300, "height": 300, "keep_aspect_ratio": False})
        return IT.classic_warp(rgb, roi, 300, 300, "replicate")

    def detect(self, rgb, score_threshold=0.0, max_results=-1, allowlist=None, denylist=None,
               min_suppression_threshold=0.3):
        it = self.interpreter
        it.set_tensor(it.get_input_details()[0]["index"], self.model_input(rgb)[None])
        it.invoke()
        out = it.get_output_details()
        loc, score = it.get_tensor(out[0]["index"])[0], it.get_tensor(out[1]["index"])[0]
        allowed = np.array([(allowlist is None or n in allowlist) and (denylist is None or n not in denylist)
                            for n in self.labels])
        masked = np.where(allowed[None, :], score, -np.inf)
        best = np.argmax(masked, axis=1)                 # first maximum, as the strict > loop
        best_score = masked[np.arange(len(best)), best]
        a = self.anchors
        ys, xs, hs, ws = (F32(self.opts[k]) for k in ("y_scale", "x_scale", "h_scale", "w_scale"))
        yc = loc[:, 0] / ys * a[:, 2] + a[:, 0]
        xc = loc[:, 1] / xs * a[:, 3] + a[:, 1]
        h = np.exp(loc[:, 2] / hs) * a[:, 2]
        w = np.exp(loc[:, 3] / ws) * a[:, 3]
        ymin, xmin, ymax, xmax = yc - h / F32(2), xc - w / F32(2), yc + h / F32(2), xc + w / F32(2)
        boxes = np.stack([xmin, ymin, xmax - xmin, ymax - ymin], axis=1).astype(F32)
        keep = np.nonzero(allowed.any() & (best_score >= F32(score_threshold)) & (boxes[:, 2] >= 0)
                          & (boxes[:, 3] >= 0))[0]
        cands = [(int(i), int(best[i]), F32(best_score[i]), boxes[i]) for i in keep]
        order = libcxx_sort(range(len(cands)), lambda p, q: cands[p][2] > cands[q][2])
        def area(r):     # Rectangle_f keeps the corners: (xmin + width - xmin) * (ymin + height - ymin)
            return F32((r[0] + r[2]) - r[0]) * F32((r[1] + r[3]) - r[1])

        kept = []
        limit = max_results if max_results > -1 else len(cands)
        for k in order:
            _, _, _, b = cands[k]
            suppressed = False
            for _, _, _, r in kept:
                iw = min(b[0] + b[2], r[0] + r[2]) - max(b[0], r[0])
                ih = min(b[1] + b[3], r[1] + r[3]) - max(b[1], r[1])
                if iw <= 0 or ih <= 0:
                    continue
                inter = F32(iw) * F32(ih)
                union = area(b) + area(r) - inter
                if union > 0 and inter / union > F32(min_suppression_threshold):
                    suppressed = True
                    break
            if not suppressed:
                kept.append(cands[k])
            if len(kept) >= limit:
                break
        H, W = rgb.shape[:2]

        def px(v, n):
            return min(max(int(F32(v) * F32(n)), 0), n)

        result = []
        for _, c, s, b in kept:
            box = {"origin_x": px(b[0], W), "origin_y": px(b[1], H), "width": px(b[2], W), "height": px(b[3], H)}
            cat = {"index": None, "score": float(s), "category_name": self.labels[c], "display_name": None}
            same = [d for d in result if d["bounding_box"] == box]
            if same:
                same[0]["categories"].append(cat)
            else:
                result.append({"categories": [cat], "bounding_box": box, "keypoints": None})
        return {"num_detections": len(result), "detections": result}


def options_of(run):
    o = run["options"]
    return dict(score_threshold=o["score_threshold"], max_results=o["max_results"],
                allowlist=o["category_allowlist"], denylist=o["category_denylist"])


def load_rgb(path):
    return cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("fixtures")
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    a = ap.parse_args()
    ssd = RawSSD(a.model)
    total = equal = 0
    for path in sorted(glob.glob(os.path.join(a.fixtures, "*.json"))):
        doc = json.load(open(path))
        rgb = load_rgb(os.path.join(a.shared, doc["image"]["decoded_png"]))
        for name, run in doc["runs"].items():
            got = ssd.detect(rgb, **options_of(run))
            total += 1
            equal += got == run["result"]
            if got != run["result"]:
                print(f"DIFFERS {doc['image']['name']}/{name}")
    for path in sorted(glob.glob(os.path.join(a.fixtures, "video", "*.json"))):
        doc = json.load(open(path))
        frames = sorted(glob.glob(os.path.join(a.shared, doc["video"]["frames_png_dir"], "*.png")))
        for name, run in doc["runs"].items():
            for f in run["frames"]:
                got = ssd.detect(load_rgb(frames[f["frame_index"]]), **options_of(run))
                want = {k: f[k] for k in ("num_detections", "detections")}
                total += 1
                equal += got == want
                if got != want:
                    print(f"DIFFERS {doc['video']['name']}/{name}/frame {f['frame_index']}")
    print(f"{equal} of {total} fixture results reproduced exactly")
    if equal != total:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
