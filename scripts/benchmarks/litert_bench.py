"""Times LiteRT (the reference TFLite runtime, XNNPACK delegate by default) on every model of the
project, with 1 and 2 threads, for docs/BENCHMARKS.md.

usage: litert_bench.py MODELS_DIR [--iterations N] [--threads 1,2] [--no-single] [--model FILE --member NAME]
                       [--paired] [--ours VISION_TASKS]
prints one JSON object per (model, threads): {"model", "member", "threads", "medianMs", "minMs", "maxMs"}

With --ours, each model and thread count is timed turn for turn against our engine
(`VISION_TASKS bench-model FILE --member NAME --threads N --driven`, scripts/benchmarks/driven.py):
two invokes of ours, the second timed, then two of LiteRT, the second timed, and so on; the object
also has "ours" (its ready line's fields and its medianMs, minMs, maxMs) and "medianRatio", the
median of the per-turn ratios ours / LiteRT.

With --paired, the two thread counts of --threads (default 1,2) are timed in one run, invoke for
invoke alternating (each timed invoke after an untimed one of the same interpreter), as
`vision-tasks bench-model --paired-threads` does; one JSON object per model:
{"model", "member", "threads", "medianMs", "paired": {"threads", "medianMs", "medianRatio"}}.
"""
import argparse
import json
import os
import statistics
import time
import zipfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter

import driven

BUNDLES = {
    "pose_landmarker_full.task": ["pose_detector.tflite", "pose_landmarks_detector.tflite"],
    "pose_landmarker_lite.task": ["pose_detector.tflite", "pose_landmarks_detector.tflite"],
    "hand_landmarker.task": ["hand_detector.tflite", "hand_landmarks_detector.tflite"],
    # The bundle's face_detector.tflite is byte-identical to blaze_face_short_range.tflite, timed below.
    "face_landmarker.task": ["face_landmarks_detector.tflite", "face_blendshapes.tflite"],
}
SINGLE = ["ssd_mobilenet_v1.tflite", "blaze_face_short_range.tflite", "selfie_segmenter.tflite"]


def models(directory, single=True):
    for bundle, members in BUNDLES.items():
        path = os.path.join(directory, bundle)
        if os.path.exists(path):
            archive = zipfile.ZipFile(path)
            for member in members:
                yield bundle, member, archive.read(member)
    for name in SINGLE if single else []:
        path = os.path.join(directory, name)
        if os.path.exists(path):
            yield name, None, open(path, "rb").read()


def prepared(content, threads):
    interpreter = Interpreter(model_content=content, num_threads=threads)
    interpreter.allocate_tensors()
    rng = np.random.default_rng(0)
    for detail in interpreter.get_input_details():
        if detail["dtype"] == np.float32:
            data = rng.uniform(0, 1, detail["shape"]).astype(np.float32)
        else:
            data = rng.integers(0, 255, detail["shape"]).astype(detail["dtype"])
        interpreter.set_tensor(detail["index"], data)
    return interpreter


def invoke_ms(interpreter):
    start = time.perf_counter()
    interpreter.invoke()
    return (time.perf_counter() - start) * 1000


def time_model(content, threads, iterations, warmup=10):
    interpreter = prepared(content, threads)
    for _ in range(warmup):
        interpreter.invoke()
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        interpreter.invoke()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples), max(samples)


def turn(interpreter):
    """Two invokes, the second timed (driven.alternate's turn)."""
    interpreter.invoke()
    return invoke_ms(interpreter)


def time_paired(content, threads, paired_threads, iterations, warmup=10):
    first, second = prepared(content, threads), prepared(content, paired_threads)
    for interpreter in (first, second):
        for _ in range(warmup):
            interpreter.invoke()
    times = driven.alternate({"first": lambda: turn(first), "second": lambda: turn(second)}, iterations)
    return (statistics.median(times["first"]), statistics.median(times["second"]),
            driven.pair_ratio(times["first"], times["second"]))


def time_against_ours(content, path, member, threads, iterations, binary, warmup=10):
    """LiteRT and our engine, turn for turn (see the module's description)."""
    interpreter = prepared(content, threads)
    for _ in range(warmup):
        interpreter.invoke()
    ours = driven.bench_model(binary, path, member, threads)
    times = driven.alternate({"ours": ours.turn, "litert": lambda: turn(interpreter)}, iterations)
    ours.close()
    return {**driven.summary(times["litert"]), "ours": {**ours.ready, **driven.summary(times["ours"])},
            "medianRatio": driven.pair_ratio(times["ours"], times["litert"])}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models_dir")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--no-single", action="store_true", help="only the .task bundles' models")
    parser.add_argument("--model", help="only this model file (a .task bundle or .tflite)")
    parser.add_argument("--member", help="only this member of the bundle")
    parser.add_argument("--paired", action="store_true", help="alternate the two thread counts of --threads")
    parser.add_argument("--ours", metavar="VISION_TASKS", help="alternate with this vision-tasks binary's --driven mode")
    args = parser.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")]
    if args.paired and len(thread_counts) != 2:
        parser.error("--paired needs exactly two thread counts in --threads")
    if args.paired and args.ours:
        parser.error("--paired (LiteRT's two thread counts) and --ours (LiteRT against ours) time different pairs")
    for bundle, member, content in models(args.models_dir, single=not args.no_single):
        if (args.model and bundle != args.model) or (args.member and member != args.member):
            continue
        if args.paired:
            median, paired_median, ratio = time_paired(content, thread_counts[0], thread_counts[1], args.iterations)
            print(json.dumps({"model": bundle, "member": member, "threads": thread_counts[0], "medianMs": round(median, 3),
                              "paired": {"threads": thread_counts[1], "medianMs": round(paired_median, 3),
                                         "medianRatio": round(ratio, 4)}}), flush=True)
            continue
        if args.ours:
            path = os.path.join(args.models_dir, bundle)
            for threads in thread_counts:
                result = time_against_ours(content, path, member, threads, args.iterations, args.ours)
                print(json.dumps({"model": bundle, "member": member, "threads": threads, **result}), flush=True)
            continue
        for threads in thread_counts:
            median, low, high = time_model(content, threads, args.iterations)
            print(json.dumps({"model": bundle, "member": member, "threads": threads,
                              "medianMs": round(median, 3), "minMs": round(low, 3), "maxMs": round(high, 3)}),
                  flush=True)


if __name__ == "__main__":
    main()
