#!/usr/bin/env python3
"""Compares two builds of vision-tasks on one model, for engine changes too small to see in two
separate runs on this shared machine (its cores' speed drifts by a third within a second).

Each round runs `bench-model MODEL --member NAME --threads 1 --paired-threads 2 --json` with
build A and then build B (the order alternates from round to round), and takes B/A of the
one-thread and of the two-thread medians from that adjacent pair of runs. Prints each build's
medians over the rounds, the median of the per-round B/A ratios, and each build's median 1T/2T
ratio.

    scripts/benchmarks/compare_builds.py BINARY_A BINARY_B MODEL --member NAME [--rounds N] [--iterations N]
                                         [--isa-a ISA] [--isa-b ISA] [--driven [--turns N]]

`--isa-a` / `--isa-b` force a kernel build on each side (`bench-model --isa`): with the same binary
twice, this compares the AVX2 kernels with the AVX-512 ones on one host, e.g.

    B=.build/release/vision-tasks
    scripts/benchmarks/compare_builds.py $B $B ../shared/models/hand_landmarker.task \
        --member hand_landmarks_detector.tflite --isa-a avx512 --isa-b avx2

With `--driven`, the two builds run side by side instead, turn for turn: one `bench-model MODEL
--threads N --driven` process per build (scripts/benchmarks/driven.py), each turn two invokes of
each, the second timed, `--turns` turns at one thread and then at two; it prints each build's
median and fastest invoke and the median of the per-turn ratios b/a. Unlike
`bench-model --paired-tuning`, which compares two settings inside one build, this sees what a
change did to the build itself (code placement, inlining: commit ba08753 measured 5 % faster with
its setting on than off, and 6.7 % slower than the build before it, turn for turn;
docs/ENGINE.md, "Half tiles, tried and removed").

For example, to time the working tree against the last commit:

    swift build -c release --product vision-tasks && cp .build/release/vision-tasks /tmp/vision-tasks-new
    git stash -u && swift build -c release --product vision-tasks && cp .build/release/vision-tasks /tmp/vision-tasks-old
    git stash pop
    scripts/benchmarks/compare_builds.py /tmp/vision-tasks-old /tmp/vision-tasks-new ../shared/models/pose_landmarker_full.task --member pose_detector.tflite
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from driven import alternate, bench_model, pair_ratio, summary  # noqa: E402
from scaling import ours  # noqa: E402  (one paired bench-model run)


def driven(args):
    """Both builds turn for turn, at one thread and then at two."""
    for threads in (1, 2):
        sides = {side: bench_model(getattr(args, side), args.model, args.member, threads, getattr(args, f"isa_{side}"))
                 for side in ("a", "b")}
        try:
            times = alternate({side: process.turn for side, process in sides.items()}, args.turns)
        finally:
            for process in sides.values():
                process.close()
        stats = {side: summary(times[side]) for side in ("a", "b")}
        for side in ("a", "b"):
            print(f"{side} {threads} thread(s): median {stats[side]['medianMs']:.3f} ms, "
                  f"fastest {stats[side]['minMs']:.3f} ms")
        ratio = pair_ratio(times["b"], times["a"])
        fastest = min(times["b"]) / min(times["a"])
        print(f"b/a {threads} thread(s), median of {args.turns} per-turn ratios: {ratio:.3f}"
              f" (fastest b / fastest a {fastest:.3f})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("model")
    parser.add_argument("--member")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--isa-a", help="kernel build for side a (bench-model --isa)")
    parser.add_argument("--isa-b", help="kernel build for side b (bench-model --isa)")
    parser.add_argument("--driven", action="store_true", help="the two builds turn for turn (bench-model --driven)")
    parser.add_argument("--turns", type=int, default=300, help="turns per thread count with --driven")
    args = parser.parse_args()
    for binary in (args.a, args.b):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary}: not an executable")
    if args.driven:
        driven(args)
        return

    runs = {"a": [], "b": []}
    for round_index in range(args.rounds):
        order = ("a", "b") if round_index % 2 == 0 else ("b", "a")
        for side in order:
            runs[side].append(
                ours(args.model, args.member, args.iterations, binary=getattr(args, side), isa=getattr(args, f"isa_{side}")))

    for side in ("a", "b"):
        one, two, ratio = (statistics.median(run[i] for run in runs[side]) for i in range(3))
        isa = getattr(args, f"isa_{side}")
        label = getattr(args, side) + (f" --isa {isa}" if isa else "")
        print(f"{side} ({label}): 1 thread {one:.3f} ms, 2 threads {two:.3f} ms, 1T/2T {ratio:.3f}")
    one = statistics.median(b[0] / a[0] for a, b in zip(runs["a"], runs["b"]))
    two = statistics.median(b[1] / a[1] for a, b in zip(runs["a"], runs["b"]))
    print(f"b/a, median of {args.rounds} rounds: 1 thread {one:.3f}, 2 threads {two:.3f}")


if __name__ == "__main__":
    main()
