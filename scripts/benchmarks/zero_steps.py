#!/usr/bin/env python3
"""How many multiply-adds the engine's 1×1 convolutions after a RELU leave out on one input.

`vk_gemm_run_skipping_zeros` leaves out step k of a tile of rows (8 pixels with AVX-512, 6 with
AVX2 and NEON) when every row of the tile reads ±0 there. The engine asks for it on 1×1
convolutions whose input a RELU or RELU6 clamps and that have at least 64 output channels
(PackedWeights.minimumSkippingColumns). This script runs the model in LiteRT, keeps every
tensor, and counts those steps on each 1×1 convolution's input, so the figures in
docs/ENGINE.md can be checked and compared between inputs:

    .venv/bench/bin/python scripts/benchmarks/zero_steps.py MODEL.tflite INPUT [--crop X0,Y0,X1,Y1]
        [--tile-rows 8] [--pixel-pairs]

With --pixel-pairs, tiles are blocks of two image rows' tile-rows / 2 pixels, one above the
other, over each pair of image rows (a last odd row in strips of tile-rows pixels), partial
tiles at the right edge included: a tiling tried and dropped in the thirteenth session
(docs/ENGINE.md, "Tiles from two image rows"). Without it, strips of tile-rows pixels over the
whole layer, whole tiles only. Either way the layer counts as one piece, where the engine's fused
kernels tile band by band.

INPUT is an image (cropped to the box given, resized to the model's input, scaled to [0, 1]) or
`uniform` (values uniform in [0, 1) from numpy's generator seeded with 0, what litert_bench.py
feeds LiteRT).
Needs ai-edge-litert, numpy and, for images, Pillow. Prints one line per 1×1 convolution with a
zero in its input, then the share of all 1×1 multiply-adds the skipping layers leave out.
"""

import argparse

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MINIMUM_COLUMNS = 64


def model_input(path, shape, crop):
    height, width = int(shape[1]), int(shape[2])
    if path == "uniform":
        return np.random.default_rng(0).uniform(0, 1, shape).astype(np.float32)
    from PIL import Image

    image = Image.open(path).convert("RGB")
    if crop:
        image = image.crop(tuple(int(v) for v in crop.split(",")))
    pixels = np.asarray(image.resize((width, height)), dtype=np.float32)
    return (pixels / 255.0)[None]


def pair_tiles_left_out(x, tile_rows):
    """Row-steps (a tile's rows times its steps) left out over an image `x` (height, width, k)
    tiled in blocks from pairs of image rows (see --pixel-pairs)."""
    height, width, k = x.shape
    half = tile_rows // 2
    left_out = 0
    if width < half:
        pairs = 0
    else:
        pairs = height // 2
    for y in range(0, 2 * pairs, 2):
        for x0 in range(0, width, half):
            tile = x[y : y + 2, x0 : x0 + half].reshape(-1, k)
            left_out += len(tile) * (tile == 0).all(axis=0).sum()
    rest = x[2 * pairs :].reshape(-1, k)
    for r in range(0, len(rest), tile_rows):
        tile = rest[r : r + tile_rows]
        left_out += len(tile) * (tile == 0).all(axis=0).sum()
    return left_out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("input")
    parser.add_argument("--crop", help="X0,Y0,X1,Y1: the box of the image to use")
    parser.add_argument("--tile-rows", type=int, default=8)
    parser.add_argument("--pixel-pairs", action="store_true", help="tiles from pairs of image rows")
    args = parser.parse_args()

    interpreter = Interpreter(model_path=args.model, experimental_preserve_all_tensors=True)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], model_input(args.input, detail["shape"], args.crop))
    interpreter.invoke()
    tensors = {t["index"]: t for t in interpreter.get_tensor_details()}

    total = 0
    left_out = 0
    for op in interpreter._get_ops_details():
        if op["op_name"] != "CONV_2D":
            continue
        filter_shape = tensors[op["inputs"][1]]["shape"]
        if filter_shape[1] != 1 or filter_shape[2] != 1:
            continue
        x = interpreter.get_tensor(op["inputs"][0])
        height, width = x.shape[1], x.shape[2]
        pixels, k, n = x.shape[1] * x.shape[2], x.shape[3], int(filter_shape[0])
        x = x.reshape(pixels, k)
        macs = pixels * k * n
        total += macs
        tiles = pixels // args.tile_rows
        if tiles == 0 or not (x == 0).any():
            continue
        if args.pixel_pairs:
            share = pair_tiles_left_out(x.reshape(height, width, k), args.tile_rows) / (pixels * k)
        else:
            whole = x[: tiles * args.tile_rows].reshape(tiles, args.tile_rows, k)
            # Steps of whole tiles only: what they could leave out. The engine also leaves out a
            # partial last tile's, and runs a tile dense when it would keep more than 7/8 of its steps.
            share = (whole == 0).all(axis=1).sum() / (pixels * k / args.tile_rows) if tiles else 0.0
        skips = n >= MINIMUM_COLUMNS
        if skips:
            left_out += macs * share
        print(
            f"CONV_2D#{op['index']}: {pixels} x {k} -> {n}, zeros {(x == 0).mean():.2f}, "
            f"whole-tile zero steps {share:.3f}{'' if skips else ' (not skipped: fewer than 64 columns)'}"
        )
    print(f"left out: {left_out / total:.4f} of the 1x1 multiply-adds ({total / 1e6:.1f} M)")


if __name__ == "__main__":
    main()
