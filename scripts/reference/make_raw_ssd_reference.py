#!/usr/bin/env python3
"""MediaPipe 1.2.3's ObjectDetector results on the derived two-output SSD (make_raw_ssd.py), as test fixtures.

usage: make_raw_ssd_reference.py MODEL OUTDIR [--shared DIR] [--no-video]
  (run with ~/.cache/mediapipe-oracle-venv/bin/python; --shared defaults to <repo>/../shared)

Writes, in exactly the schema of <shared>/reference/object_detector/<image>.json ("mediapipe-oracle/1",
see <shared>/oracle/README.md; the oracle's own helpers are imported from <shared>/oracle, not copied):
  OUTDIR/<image>.json   IMAGE mode, every <shared>/images/decoded/*.png (the exact pixels), with the
                        option sets of common.OD_CONFIGS (default, max3_thr0, thr05, allow_person,
                        deny_person) plus EXTRA_CONFIGS (thr03_max5);
  OUTDIR/video/gesture_test_video.json   VIDEO mode over <shared>/images/frames/gesture_test_video
                        (timestamp_ms = frame_index * 33), configs VIDEO_CONFIGS, one fresh task each
                        (skipped with --no-video).
"bundle" is {path: MODEL's file name, sha256: MODEL's sha256}; image / video paths are relative to <shared>.
Numbers are MediaPipe's float32 values as the oracle writes them (shortest round-trip decimal): the scores
are multiples of 1/256 and the boxes integers, so no rounding is needed (or done) to keep the size down.
"""
import argparse
import glob
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXTRA_CONFIGS = {"thr03_max5": dict(score_threshold=0.3, max_results=5)}
VIDEO_SEQUENCE = "gesture_test_video"
VIDEO_CONFIGS = ["thr03_max5", "max3_thr0"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("outdir")
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    ap.add_argument("--no-video", action="store_true")
    a = ap.parse_args()
    shared = os.path.abspath(a.shared)
    sys.path.insert(0, os.path.join(shared, "oracle"))
    import common as C            # the oracle's helpers (option sets, result -> JSON, image loading)
    import run_images             # image_block(): the "image" entry of the reference files

    model = os.path.abspath(a.model)
    bundle = {"path": os.path.basename(model), "sha256": C.sha256_file(model)}
    configs = {**C.OD_CONFIGS, **EXTRA_CONFIGS}
    images = os.path.join(shared, "images")
    env = C.env_info()
    names = C.list_images(images)
    if not names:
        raise SystemExit(f"no images in {images}/decoded")
    loaded = {n: C.load_png(os.path.join(images, "decoded", n + ".png")) for n in names}
    docs = {n: {"schema": C.SCHEMA, "task": "object_detector", "mode": "IMAGE", "env": env, "bundle": bundle,
                "image": run_images.image_block(images, n, *loaded[n]), "runs": {}} for n in names}
    for cname, cfg in configs.items():
        opts = C.effective_options(C.od_options(model, cfg))
        with C.create("od", model, cfg) as task:
            for n in names:
                r = C.od_result_dict(task.detect(loaded[n][0]))
                docs[n]["runs"][cname] = {"options": opts, "result": r}
                print(f"{cname:14s} {n:18s} {r['num_detections']}")
    os.makedirs(a.outdir, exist_ok=True)
    for n, d in docs.items():
        C.dump(os.path.join(a.outdir, n + ".json"), d)

    if not a.no_video:
        files = sorted(glob.glob(os.path.join(images, "frames", VIDEO_SEQUENCE, "*.png")))
        frames = [C.load_png(f) for f in files]
        h, w = frames[0][1].shape[:2]
        frames_dir = os.path.join(images, "frames", VIDEO_SEQUENCE)
        video = {"name": VIDEO_SEQUENCE, "frames_png_dir": C.rel(frames_dir, shared),
                 "num_frames": len(files), "width": int(w), "height": int(h),
                 "frame_pixels_sha256": [C.pixels_sha256(px) for _, px in frames]}
        src = C.load_sources(images).get(VIDEO_SEQUENCE)
        if src:
            video["source"] = src
        doc = {"schema": C.SCHEMA, "task": "object_detector", "mode": "VIDEO", "env": env, "bundle": bundle,
               "video": video, "timestamps": f"timestamp_ms = frame_index * {C.FRAME_MS}", "runs": {}}
        for cname in VIDEO_CONFIGS:
            cfg = configs[cname]
            out = []
            with C.create("od", model, cfg, "VIDEO") as task:
                for i, (img, _) in enumerate(frames):
                    r = C.od_result_dict(task.detect_for_video(img, i * C.FRAME_MS))
                    out.append({"frame_index": i, "timestamp_ms": i * C.FRAME_MS, **r})
            doc["runs"][cname] = {"options": C.effective_options(C.od_options(model, cfg, "VIDEO")), "frames": out}
            print(f"video {cname:14s} {VIDEO_SEQUENCE} counts " + " ".join(str(f["num_detections"]) for f in out))
        C.dump(os.path.join(a.outdir, "video", VIDEO_SEQUENCE + ".json"), doc)

    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(a.outdir, "**", "*.json"), recursive=True))
    print(f"wrote {len(names)} image files{'' if a.no_video else ' + 1 video file'} to {a.outdir}: {total} bytes")


if __name__ == "__main__":
    main()
