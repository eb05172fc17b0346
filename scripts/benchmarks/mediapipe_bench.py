#!/usr/bin/env python3
"""Times MediaPipe's own Python task (PyPI `mediapipe`, CPU) per detect call, the counterpart of
`vision-tasks bench TASK IMAGE --mode image|video --json`.

usage: mediapipe_bench.py TASK IMAGE --model PATH [--mode image|video] [--iterations N] [--warmup N] [--masks]
                          [--blendshapes] [--ours VISION_TASKS]
  TASK: pose | hands | objects | faces | face-landmarks | segment (default options of the task: the
  segmenter outputs its confidence masks; --masks adds pose segmentation masks, --blendshapes the
  face landmarker's blendshapes)
prints {"task", "model", "image", "mode", "medianMs", "minMs", "maxMs"}

IMAGE mode calls detect() on the same image; VIDEO mode feeds the image as successive frames
33 ms apart (detect_for_video), so after the first frame the landmarkers track and skip their
detector, as `vision-tasks bench --mode video` does. The image is read with mp.Image, which
keeps PNG pixels exact.

With --ours, MediaPipe is timed turn for turn against our task with the default thread count and
with one thread (`VISION_TASKS bench TASK IMAGE --model PATH --mode M [--threads 1] --driven`,
scripts/benchmarks/driven.py): each step gives ours, ours at one thread and MediaPipe two calls
each, the second timed. The object then also has "ours" and "ours1" (medianMs, minMs, maxMs and
"medianRatio", the median of the per-step ratios ours / MediaPipe).
"""
import argparse
import json
import os
import time

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

import driven


def create(task, model, mode, masks, blendshapes=False):
    base = BaseOptions(model_asset_path=model)
    running = vision.RunningMode.VIDEO if mode == "video" else vision.RunningMode.IMAGE
    if task == "pose":
        options = vision.PoseLandmarkerOptions(base_options=base, running_mode=running,
                                               output_segmentation_masks=masks)
        return vision.PoseLandmarker.create_from_options(options)
    if task == "hands":
        return vision.HandLandmarker.create_from_options(
            vision.HandLandmarkerOptions(base_options=base, running_mode=running))
    if task == "segment":
        return vision.ImageSegmenter.create_from_options(
            vision.ImageSegmenterOptions(base_options=base, running_mode=running))
    if task == "face-landmarks":
        return vision.FaceLandmarker.create_from_options(
            vision.FaceLandmarkerOptions(base_options=base, running_mode=running,
                                         output_face_blendshapes=blendshapes))
    if task == "faces":
        return vision.FaceDetector.create_from_options(
            vision.FaceDetectorOptions(base_options=base, running_mode=running))
    return vision.ObjectDetector.create_from_options(
        vision.ObjectDetectorOptions(base_options=base, running_mode=running))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("task", choices=["pose", "hands", "objects", "faces", "face-landmarks", "segment"])
    parser.add_argument("image")
    parser.add_argument("--model", required=True)
    parser.add_argument("--mode", choices=["image", "video"], default="image")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--masks", action="store_true")
    parser.add_argument("--blendshapes", action="store_true")
    parser.add_argument("--ours", metavar="VISION_TASKS", help="alternate with this vision-tasks binary's --driven mode")
    args = parser.parse_args()
    if args.ours and args.masks:
        parser.error("--masks has no counterpart in `vision-tasks bench pose`: not with --ours")

    image = mp.Image.create_from_file(args.image)
    samples = []
    with create(args.task, args.model, args.mode, args.masks, args.blendshapes) as task:
        index = 0

        def call():
            nonlocal index
            start = time.perf_counter()
            if args.task == "segment":
                if args.mode == "video":
                    task.segment_for_video(image, index * 33)
                else:
                    task.segment(image)
            elif args.mode == "video":
                task.detect_for_video(image, index * 33)
            else:
                task.detect(image)
            index += 1
            return (time.perf_counter() - start) * 1000

        for _ in range(args.warmup):
            call()
        if args.ours:
            result = against_ours(args, call)
        else:
            samples = [call() for _ in range(args.iterations)]
            result = driven.summary(samples)
    print(json.dumps({
        "task": args.task, "model": os.path.basename(args.model), "image": os.path.basename(args.image),
        "mode": args.mode, "masks": args.masks, "blendshapes": args.blendshapes, **result}))


def against_ours(args, call):
    """MediaPipe's `call` turn for turn with ours at the default thread count and at one thread."""
    command = [args.ours, "bench", args.task, args.image, "--model", args.model, "--mode", args.mode, "--driven"]
    command += ["--blendshapes"] if args.blendshapes else []
    ours, ours1 = driven.Driven(command), driven.Driven(command + ["--threads", "1"])

    def mediapipe_turn():
        call()
        return call()

    times = driven.alternate({"ours": ours.turn, "ours1": ours1.turn, "mediapipe": mediapipe_turn}, args.iterations)
    ours.close()
    ours1.close()
    result = driven.summary(times["mediapipe"])
    for name in ("ours", "ours1"):
        result[name] = {**driven.summary(times[name]), "medianRatio": driven.pair_ratio(times[name], times["mediapipe"])}
    return result


if __name__ == "__main__":
    main()
