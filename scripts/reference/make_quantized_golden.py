#!/usr/bin/env python3
"""Writes the golden data of the quantized-engine tests (Tests/InferenceTests/Golden/Quantized).

LiteRT (PyPI `ai-edge-litert` 2.3.0) is the reference, in its three CPU paths:
  * "xnnpack"   - the default interpreter (XNNPACK delegate), what MediaPipe runs;
  * "builtin"   - OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES (TFLite's optimized kernels);
  * "reference" - OpResolverType.BUILTIN_REF (TFLite's reference kernels).
The engine reproduces "xnnpack" (QuantizedArithmetic.xnnpack) and "reference"
(QuantizedArithmetic.reference) bit for bit, so only those two paths' results are stored;
"builtin" is run to print how far each stored path is from it (the engine's distance to it is
then the same).

1. ssd_mobilenet_v1.zip (deflate; the Swift tests read it with ModelFile's ZipArchive):
   for two seeded random uint8 inputs (SplitMix64, top 8 bits - RandomInput.swift reproduces
   them) and one real image (../shared/images/decoded/od_test_image.png, resized to 300x300
   with OpenCV INTER_AREA and stored as raw RGB bytes), and for each LiteRT path: the two
   quantized detector heads that feed TFLite_Detection_PostProcess ("Squeeze" [1,1917,4] and
   "convert_scores" [1,1917,91], read as extra model outputs) and the four post-processed
   outputs. manifest.json lists the cases, members and the head tensor indices.
2. ops.json + *.tflite: tiny single-operator (and one small multi-operator) models written
   directly with the flatbuffers schema (no TensorFlow needed), covering the operators of
   ssd_mobilenet_v1 and of EfficientDet-Lite0/2 (int8 and float32 variants) in UINT8 and INT8,
   per-tensor and per-channel, with their inputs and every path's outputs. The .tflite files
   are this project's own test models.
3. unsupported-*.tflite: two models the engine must reject (unknown custom operator,
   operator version beyond TFLite's).
4. ops.json also holds TFLite_Detection_PostProcess models with float and uint8 inputs:
   fast NMS with one and three classes per detection (with tied scores), regular NMS, with and
   without a background column.

Usage: ~/.cache/mediapipe-oracle-venv/bin/python scripts/reference/make_quantized_golden.py [SHARED_DIR]
"""
import base64
import io
import json
import os
import sys
import zipfile

import cv2
import flatbuffers
from flatbuffers import flexbuffers
import numpy as np
from ai_edge_litert import interpreter as litert
import ai_edge_litert.schema_py_generated as schema

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "Tests", "InferenceTests", "Golden", "Quantized")

# The paths whose results the tests check (the engine's two arithmetics).
STORED = ("xnnpack", "reference")

RESOLVERS = {
    "xnnpack": None,
    "builtin": litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
    "reference": litert.OpResolverType.BUILTIN_REF,
}

MASK64 = (1 << 64) - 1


def splitmix64(seed, count):
    """`count` outputs of SplitMix64 started at `seed` (as in make_inference_golden.py)."""
    with np.errstate(over="ignore"):
        steps = np.arange(1, count + 1, dtype=np.uint64)
        z = np.uint64(seed) + steps * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def random_bytes(seed, count):
    """The top 8 bits of each SplitMix64 output."""
    return (splitmix64(seed, count) >> np.uint64(56)).astype(np.uint8)


def b64(array):
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def run(model_bytes, inputs, resolver):
    kwargs = {"model_content": model_bytes, "num_threads": 1}
    if RESOLVERS[resolver] is not None:
        kwargs["experimental_op_resolver_type"] = RESOLVERS[resolver]
    interp = litert.Interpreter(**kwargs)
    interp.allocate_tensors()
    for detail, value in zip(interp.get_input_details(), inputs):
        interp.set_tensor(detail["index"], value.reshape(detail["shape"]).astype(detail["dtype"]))
    interp.invoke()
    return [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]


def pack(model):
    builder = flatbuffers.Builder(0)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


# ---------------------------------------------------------------------------------------------
# 1. ssd_mobilenet_v1
# ---------------------------------------------------------------------------------------------

def ssd_golden(shared):
    with open(os.path.join(shared, "models", "ssd_mobilenet_v1.tflite"), "rb") as f:
        original = f.read()
    model = schema.ModelT.InitFromPackedBuf(original, 0)
    graph = model.subgraphs[0]
    names = [t.name.decode() if isinstance(t.name, bytes) else t.name for t in graph.tensors]
    heads = [names.index("Squeeze"), names.index("convert_scores")]
    graph.outputs = list(graph.outputs) + heads
    with_heads = pack(model)

    image = cv2.imread(os.path.join(shared, "images", "decoded", "od_test_image.png"), cv2.IMREAD_COLOR)
    image = cv2.cvtColor(cv2.resize(image, (300, 300), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB)
    cases = [("random-seed-1", {"kind": "random", "seed": 1}, random_bytes(1, 300 * 300 * 3)),
             ("random-seed-2", {"kind": "random", "seed": 2}, random_bytes(2, 300 * 300 * 3)),
             ("image-od_test_image", {"kind": "image", "file": "od_test_image_300.u8"}, image.reshape(-1))]
    members = {"od_test_image_300.u8": image.tobytes()}
    manifest = {"model": "ssd_mobilenet_v1.tflite", "headTensors": heads, "headNames": ["Squeeze", "convert_scores"],
                "reference": "ai-edge-litert 2.3.0, 1 thread", "cases": []}
    for name, recipe, data in cases:
        entry = {"name": name, "input": recipe, "paths": {}}
        results = {}
        for resolver in RESOLVERS:
            outputs = run(with_heads, [data], resolver)
            results[resolver] = outputs
            if resolver not in STORED:
                continue
            prefix = f"{name}/{resolver}/"
            members[prefix + "boxes.u8"] = outputs[4].tobytes()
            members[prefix + "scores.u8"] = outputs[5].tobytes()
            detections = np.concatenate([o.reshape(-1).astype("<f4") for o in outputs[:4]])
            members[prefix + "detections.f32"] = detections.tobytes()
            entry["paths"][resolver] = {"count": int(outputs[3][0])}
        # The extra outputs must not change the post-processed result.
        plain = run(original, [data], "xnnpack")
        assert all(np.array_equal(a, b) for a, b in zip(plain, results["xnnpack"][:4]))
        for a, b in (("xnnpack", "builtin"), ("reference", "builtin"), ("xnnpack", "reference")):
            worst = max(int(np.max(np.abs(results[a][k].astype(int) - results[b][k].astype(int)))) for k in (4, 5))
            same = all(np.array_equal(results[a][k], results[b][k]) for k in range(4))
            print(f"  ssd {name}: heads {a} vs {b} max {worst} quanta; post-processed equal: {same}")
        manifest["cases"].append(entry)
    members["manifest.json"] = json.dumps(manifest, indent=1).encode()
    with zipfile.ZipFile(os.path.join(OUT, "ssd_mobilenet_v1.zip"), "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for member, payload in members.items():
            z.writestr(member, payload)


# ---------------------------------------------------------------------------------------------
# 2. Tiny models
# ---------------------------------------------------------------------------------------------

TYPES = {"f32": 0, "i32": 2, "u8": 3, "i8": 9}
NUMPY = {"f32": np.float32, "i32": np.int32, "u8": np.uint8, "i8": np.int8}
BO = schema.BuiltinOperator
OPT = schema.BuiltinOptions


class Tiny:
    """A one-subgraph model assembled tensor by tensor."""

    def __init__(self):
        self.tensors, self.buffers, self.ops, self.codes = [], [schema.BufferT()], [], []
        self.inputs, self.outputs = [], []

    def tensor(self, shape, dtype, scale=None, zero_point=0, axis=0, data=None):
        t = schema.TensorT()
        t.shape = [int(d) for d in shape]
        t.type = TYPES[dtype]
        t.name = f"t{len(self.tensors)}"
        if scale is not None:
            q = schema.QuantizationParametersT()
            q.scale = [float(s) for s in np.atleast_1d(np.float32(scale))]
            q.zeroPoint = [int(z) for z in np.atleast_1d(zero_point)]
            q.quantizedDimension = axis
            t.quantization = q
        t.buffer = 0
        if data is not None:
            b = schema.BufferT()
            b.data = list(np.ascontiguousarray(np.asarray(data, dtype=NUMPY[dtype])).tobytes())
            self.buffers.append(b)
            t.buffer = len(self.buffers) - 1
        self.tensors.append(t)
        return len(self.tensors) - 1

    def op(self, code, inputs, outputs, version=1, options_type=0, options=None, custom=None, custom_code=None):
        key = (code, custom_code, version)
        if key not in self.codes:
            self.codes.append(key)
        o = schema.OperatorT()
        o.opcodeIndex = self.codes.index(key)
        o.inputs, o.outputs = list(inputs), list(outputs)
        o.builtinOptionsType, o.builtinOptions = options_type, options
        if custom is not None:
            o.customOptions = list(custom)
        self.ops.append(o)

    def build(self):
        m = schema.ModelT()
        m.version, m.description = 3, "VisionTasks quantized-engine test model"
        codes = []
        for code, custom_code, version in self.codes:
            c = schema.OperatorCodeT()
            c.builtinCode, c.deprecatedBuiltinCode, c.version, c.customCode = code, min(code, 127), version, custom_code
            codes.append(c)
        m.operatorCodes = codes
        g = schema.SubGraphT()
        g.tensors, g.inputs, g.outputs, g.operators, g.name = self.tensors, self.inputs, self.outputs, self.ops, "main"
        m.subgraphs, m.buffers = [g], self.buffers
        return pack(m)


RANGE = {"u8": (0, 255), "i8": (-128, 127)}


def offset(dtype):
    return 0 if dtype == "u8" else -128


def conv_case(rng, dtype, depthwise, per_channel, activation, stride, padding, kernel, dilation=1,
              channels_in=6, channels_out=13, multiplier=1, size=(9, 8)):
    t = Tiny()
    lo, hi = RANGE[dtype]
    x_scale, x_zp = 0.05, 110 + offset(dtype)
    y_scale, y_zp = 0.08, 100 + offset(dtype)
    out_channels = channels_in * multiplier if depthwise else channels_out
    if per_channel:
        w_scale = rng.uniform(0.002, 0.02, out_channels).astype(np.float32)
        w_zp = np.zeros(out_channels, np.int64)
    else:
        w_scale = np.float32(0.01)
        w_zp = 130 if dtype == "u8" else 0
    w_shape = [1, kernel, kernel, out_channels] if depthwise else [out_channels, kernel, kernel, channels_in]
    w_lo, w_hi = (0, 255) if dtype == "u8" else (-127, 127)
    weights = rng.integers(w_lo, w_hi + 1, w_shape).astype(NUMPY[dtype])
    bias_scale = (np.float32(x_scale) * np.atleast_1d(w_scale)).astype(np.float32)
    bias = rng.integers(-3000, 3000, out_channels).astype(np.int32)
    h, w = size
    x = t.tensor([1, h, w, channels_in], dtype, x_scale, x_zp)
    f = t.tensor(w_shape, dtype, w_scale, w_zp, axis=(3 if depthwise else 0) if per_channel else 0, data=weights)
    b = t.tensor([out_channels], "i32", bias_scale if per_channel else float(bias_scale[0]),
                 np.zeros(out_channels, np.int64) if per_channel else 0, data=bias)
    effective = (kernel - 1) * dilation + 1
    oh = (h + stride - 1) // stride if padding == "same" else (h - effective + stride) // stride
    ow = (w + stride - 1) // stride if padding == "same" else (w - effective + stride) // stride
    y = t.tensor([1, oh, ow, out_channels], dtype, y_scale, y_zp)
    if depthwise:
        o = schema.DepthwiseConv2DOptionsT()
        o.depthMultiplier = multiplier
        code, options_type = BO.DEPTHWISE_CONV_2D, OPT.DepthwiseConv2DOptions
    else:
        o = schema.Conv2DOptionsT()
        code, options_type = BO.CONV_2D, OPT.Conv2DOptions
    o.padding = 0 if padding == "same" else 1
    o.strideW = o.strideH = stride
    o.fusedActivationFunction = activation
    o.dilationWFactor = o.dilationHFactor = dilation
    t.op(code, [x, f, b], [y], version=3 if dtype == "i8" else 1, options_type=options_type, options=o)
    t.inputs, t.outputs = [x], [y]
    return t.build(), [rng.integers(lo, hi + 1, [1, h, w, channels_in]).astype(NUMPY[dtype])]


def binary_case(rng, dtype, code, scales, activation, shape_b):
    t = Tiny()
    lo, hi = RANGE[dtype]
    (sa, za), (sb, zb), (sy, zy) = scales
    shape_a = [1, 4, 5, 16]
    a = t.tensor(shape_a, dtype, sa, za + offset(dtype))
    b = t.tensor(shape_b, dtype, sb, zb + offset(dtype))
    y = t.tensor(shape_a, dtype, sy, zy + offset(dtype))
    if code == BO.ADD:
        o, options_type = schema.AddOptionsT(), OPT.AddOptions
    else:
        o, options_type = schema.MulOptionsT(), OPT.MulOptions
    o.fusedActivationFunction = activation
    t.op(code, [a, b], [y], version=1 if dtype == "u8" else 2, options_type=options_type, options=o)
    t.inputs, t.outputs = [a, b], [y]
    return t.build(), [rng.integers(lo, hi + 1, shape_a).astype(NUMPY[dtype]),
                       rng.integers(lo, hi + 1, shape_b).astype(NUMPY[dtype])]


def concat_case(rng, dtype, quantizations, output, axis, shapes):
    t = Tiny()
    lo, hi = RANGE[dtype]
    inputs = [t.tensor(shape, dtype, s, z + offset(dtype)) for shape, (s, z) in zip(shapes, quantizations)]
    out_shape = list(shapes[0])
    out_shape[axis] = sum(s[axis] for s in shapes)
    y = t.tensor(out_shape, dtype, output[0], output[1] + offset(dtype))
    o = schema.ConcatenationOptionsT()
    o.axis = axis
    t.op(BO.CONCATENATION, inputs, [y], version=1 if dtype == "u8" else 2,
         options_type=OPT.ConcatenationOptions, options=o)
    t.inputs, t.outputs = inputs, [y]
    return t.build(), [rng.integers(lo, hi + 1, s).astype(NUMPY[dtype]) for s in shapes]


def unary_case(code, version, x_type, x_quant, y_type, y_quant, data, shape=None):
    t = Tiny()
    shape = shape or list(data.shape)
    x = t.tensor(shape, x_type, *(x_quant or (None,)))
    y = t.tensor(shape, y_type, *(y_quant or (None,)))
    t.op(code, [x], [y], version=version)
    t.inputs, t.outputs = [x], [y]
    return t.build(), [data.reshape(shape)]


def pool_case(rng, dtype, code, kernel, stride, padding, activation, quant=(0.05, 3)):
    t = Tiny()
    lo, hi = RANGE[dtype]
    h, w, c = 7, 8, 5
    x = t.tensor([1, h, w, c], dtype, quant[0], quant[1] + offset(dtype))
    oh = (h + stride - 1) // stride if padding == "same" else (h - kernel + stride) // stride
    ow = (w + stride - 1) // stride if padding == "same" else (w - kernel + stride) // stride
    y = t.tensor([1, oh, ow, c], dtype, quant[0], quant[1] + offset(dtype))
    o = schema.Pool2DOptionsT()
    o.padding = 0 if padding == "same" else 1
    o.strideW = o.strideH = stride
    o.filterWidth = o.filterHeight = kernel
    o.fusedActivationFunction = activation
    t.op(code, [x], [y], version=1 if dtype == "u8" else 2, options_type=OPT.Pool2DOptions, options=o)
    t.inputs, t.outputs = [x], [y]
    return t.build(), [rng.integers(lo, hi + 1, [1, h, w, c]).astype(NUMPY[dtype])]


def resize_case(rng, dtype, bilinear, size, out_size, align, half):
    t = Tiny()
    lo, hi = RANGE[dtype]
    h, w = size
    x = t.tensor([1, h, w, 3], dtype, 0.05, 3 + offset(dtype))
    s = t.tensor([2], "i32", data=list(out_size))
    y = t.tensor([1, out_size[0], out_size[1], 3], dtype, 0.05, 3 + offset(dtype))
    if bilinear:
        o, code, options_type = schema.ResizeBilinearOptionsT(), BO.RESIZE_BILINEAR, OPT.ResizeBilinearOptions
    else:
        o, code, options_type = (schema.ResizeNearestNeighborOptionsT(), BO.RESIZE_NEAREST_NEIGHBOR,
                                 OPT.ResizeNearestNeighborOptions)
    o.alignCorners, o.halfPixelCenters = align, half
    t.op(code, [x, s], [y], version=3, options_type=options_type, options=o)
    t.inputs, t.outputs = [x], [y]
    return t.build(), [rng.integers(lo, hi + 1, [1, h, w, 3]).astype(NUMPY[dtype])]


def efficientdet_block(rng):
    """A small int8 network with EfficientDet-Lite's operator pattern: uint8 input requantized to
    int8, per-channel convolutions, swish (LOGISTIC + MUL), depthwise, residual ADD, MAX_POOL,
    RESIZE_NEAREST_NEIGHBOR, CONCATENATION, RESHAPE, DEQUANTIZE to float."""
    t = Tiny()
    image = t.tensor([1, 12, 12, 3], "u8", 0.0078125, 128)
    x = t.tensor([1, 12, 12, 3], "i8", 0.0078125, 0)
    t.op(BO.QUANTIZE, [image], [x])

    def conv(inp, cin, cout, kernel, stride, out_hw, out_quant, depthwise=False):
        w_scale = rng.uniform(0.003, 0.03, cout).astype(np.float32)
        shape = [1, kernel, kernel, cout] if depthwise else [cout, kernel, kernel, cin]
        f = t.tensor(shape, "i8", w_scale, np.zeros(cout, np.int64), axis=3 if depthwise else 0,
                     data=rng.integers(-127, 128, shape))
        in_scale = t.tensors[inp].quantization.scale[0]
        b = t.tensor([cout], "i32", (np.float32(in_scale) * w_scale).astype(np.float32), np.zeros(cout, np.int64),
                     data=rng.integers(-2000, 2000, cout))
        y = t.tensor([1, out_hw, out_hw, cout], "i8", *out_quant)
        if depthwise:
            o = schema.DepthwiseConv2DOptionsT()
            o.depthMultiplier = 1
            code, options_type = BO.DEPTHWISE_CONV_2D, OPT.DepthwiseConv2DOptions
        else:
            o = schema.Conv2DOptionsT()
            code, options_type = BO.CONV_2D, OPT.Conv2DOptions
        o.padding, o.strideW, o.strideH, o.dilationWFactor, o.dilationHFactor = 0, stride, stride, 1, 1
        t.op(code, [inp, f, b], [y], version=3, options_type=options_type, options=o)
        return y

    def swish(inp, hw, c, quant):
        s = t.tensor([1, hw, hw, c], "i8", 1 / 256, -128)
        t.op(BO.LOGISTIC, [inp], [s], version=2)
        y = t.tensor([1, hw, hw, c], "i8", *quant)
        t.op(BO.MUL, [inp, s], [y], version=2, options_type=OPT.MulOptions, options=schema.MulOptionsT())
        return y

    c1 = conv(x, 3, 16, 3, 2, 6, (0.06, -10))
    s1 = swish(c1, 6, 16, (0.04, -100))
    d1 = conv(s1, 16, 16, 3, 1, 6, (0.05, 5), depthwise=True)
    s2 = swish(d1, 6, 16, (0.04, -100))
    added = t.tensor([1, 6, 6, 16], "i8", 0.07, -20)
    t.op(BO.ADD, [s2, s1], [added], version=2, options_type=OPT.AddOptions, options=schema.AddOptionsT())
    pooled = t.tensor([1, 3, 3, 16], "i8", 0.07, -20)
    o = schema.Pool2DOptionsT()
    o.padding, o.strideW, o.strideH, o.filterWidth, o.filterHeight = 0, 2, 2, 3, 3
    t.op(BO.MAX_POOL_2D, [added], [pooled], version=2, options_type=OPT.Pool2DOptions, options=o)
    size = t.tensor([2], "i32", data=[6, 6])
    upsampled = t.tensor([1, 6, 6, 16], "i8", 0.07, -20)
    t.op(BO.RESIZE_NEAREST_NEIGHBOR, [pooled, size], [upsampled], version=2,
         options_type=OPT.ResizeNearestNeighborOptions, options=schema.ResizeNearestNeighborOptionsT())
    joined = t.tensor([1, 6, 6, 32], "i8", 0.07, -20)
    o = schema.ConcatenationOptionsT()
    o.axis = 3
    t.op(BO.CONCATENATION, [added, upsampled], [joined], version=2, options_type=OPT.ConcatenationOptions, options=o)
    head = conv(joined, 32, 8, 1, 1, 6, (0.1, 7))
    flat_shape = t.tensor([3], "i32", data=[1, 36, 8])
    flat = t.tensor([1, 36, 8], "i8", 0.1, 7)
    o = schema.ReshapeOptionsT()
    o.newShape = [1, 36, 8]
    t.op(BO.RESHAPE, [head, flat_shape], [flat], options_type=OPT.ReshapeOptions, options=o)
    out = t.tensor([1, 36, 8], "f32")
    t.op(BO.DEQUANTIZE, [flat], [out], version=2)
    t.inputs, t.outputs = [image], [out, flat]
    return t.build(), [rng.integers(0, 256, [1, 12, 12, 3]).astype(np.uint8)]


def flex_map(entries):
    """A flexbuffer map of scalars: ints, floats (stored as float32 like the TF converter) and bools."""
    builder = flexbuffers.Builder()
    with builder.Map():
        for key, value in sorted(entries.items()):
            if isinstance(value, bool):
                builder.Bool(key, value)
            elif isinstance(value, int):
                builder.Int(key, value)
            else:
                builder.Float(key, value)
    return bytes(builder.Finish())


def postprocess_case(rng, options, anchors_count=64, classes=5, background=True, quantized=False, tie_levels=None):
    t = Tiny()
    columns = classes + (1 if background else 0)
    centers = rng.uniform(0.05, 0.95, (anchors_count, 2))
    sizes = rng.uniform(0.05, 0.4, (anchors_count, 2))
    anchors = np.concatenate([centers, sizes], axis=1).astype(np.float32)
    boxes = rng.normal(0, 1.5, (1, anchors_count, 4)).astype(np.float32)
    if tie_levels:
        scores = (rng.integers(0, tie_levels, (1, anchors_count, columns)) / tie_levels).astype(np.float32)
    else:
        scores = rng.uniform(0, 1, (1, anchors_count, columns)).astype(np.float32)
    if quantized:
        box_quant, score_quant, anchor_quant = (0.05, 128), (1 / 256, 0), (1 / 255, 0)
        boxes = np.clip(np.round(boxes / box_quant[0]) + box_quant[1], 0, 255).astype(np.uint8)
        scores = np.clip(np.round(scores / score_quant[0]), 0, 255).astype(np.uint8)
        anchors = np.clip(np.round(anchors / anchor_quant[0]), 0, 255).astype(np.uint8)
        b = t.tensor([1, anchors_count, 4], "u8", *box_quant)
        s = t.tensor([1, anchors_count, columns], "u8", *score_quant)
        a = t.tensor([anchors_count, 4], "u8", *anchor_quant, data=anchors)
    else:
        b = t.tensor([1, anchors_count, 4], "f32")
        s = t.tensor([1, anchors_count, columns], "f32")
        a = t.tensor([anchors_count, 4], "f32", data=anchors)
    outputs = [t.tensor([], "f32") for _ in range(4)]
    t.op(BO.CUSTOM, [b, s, a], outputs, custom=flex_map(options), custom_code="TFLite_Detection_PostProcess")
    t.inputs, t.outputs = [b, s], outputs
    return t.build(), [boxes, scores]


def tiny_cases(rng):
    cases = []

    def add(name, built):
        cases.append((name, built[0], built[1]))

    for dtype in ("u8", "i8"):
        per_channel_options = (False, True) if dtype == "i8" else (False,)
        for per_channel in per_channel_options:
            kind = "per-channel" if per_channel else "per-tensor"
            for act, stride, pad, k, dil in ((0, 1, "same", 3, 1), (3, 2, "same", 3, 1), (1, 1, "valid", 1, 1),
                                            (2, 1, "same", 5, 1), (0, 2, "valid", 3, 2)):
                add(f"conv2d-{dtype}-{kind}-k{k}-s{stride}-d{dil}-{pad}-act{act}",
                    conv_case(rng, dtype, False, per_channel, act, stride, pad, k, dil))
                add(f"depthwise-{dtype}-{kind}-k{k}-s{stride}-d{dil}-{pad}-act{act}",
                    conv_case(rng, dtype, True, per_channel, act, stride, pad, k, dil, channels_in=13))
            add(f"depthwise-{dtype}-{kind}-multiplier2",
                conv_case(rng, dtype, True, per_channel, 0, 1, "same", 3, 1, channels_in=5, multiplier=2))
            add(f"conv2d-{dtype}-{kind}-k5-many-channels",
                conv_case(rng, dtype, False, per_channel, 3, 2, "same", 5, 1, channels_in=11, channels_out=37,
                          size=(15, 13)))
        for code, name in ((BO.ADD, "add"), (BO.MUL, "mul")):
            for scales, act, shape_b in ((((0.05, 130), (0.07, 120), (0.1, 128)), 0, [1, 4, 5, 16]),
                                         (((0.02, 100), (0.5, 3), (0.3, 60)), 1, [1, 1, 1, 16]),
                                         (((0.1, 128), (0.1, 128), (0.05, 0)), 3, [1, 4, 5, 1]),
                                         (((0.011, 5), (0.13, 250), (0.06, 10)), 2, [1, 4, 1, 16]),
                                         (((0.8, 128), (0.0003, 128), (0.004, 128)), 0, [1, 4, 5, 16]),
                                         (((0.5, 100), (0.0001, 30), (0.6, 120)), 0, [1, 4, 5, 16]),
                                         (((0.004, 100), (0.002, 30), (0.9, 120)), 0, [1, 4, 5, 16])):
                add(f"{name}-{dtype}-act{act}-b{'x'.join(map(str, shape_b))}-s{scales[0][0]}",
                    binary_case(rng, dtype, code, scales, act, shape_b))
        lo, hi = RANGE[dtype]
        values = np.arange(lo, hi + 1).astype(NUMPY[dtype]).reshape(1, 256)
        for scale, zp in ((0.049736768, 223), (0.1, 100), (0.0625, 130), (0.02, 10)):
            add(f"logistic-{dtype}-{scale}", unary_case(BO.LOGISTIC, 1 if dtype == "u8" else 2, dtype,
                                                        (scale, zp + offset(dtype)), dtype,
                                                        (1 / 256, offset(dtype)), values))
        floats = (rng.integers(-300, 300, 1000) * np.float32(0.05) / 2).astype(np.float32)
        floats[:400] = rng.uniform(-10, 10, 400).astype(np.float32)
        floats[400:413] = [1e9, -1e9, 3e4, -3e4, 6.4, -6.4, 0.0, -0.0, 12.725, 6.375, np.nan, np.inf, -np.inf]
        for scale, zp in ((0.05, 128), (0.0078125, 128), (0.0371, 77)):
            add(f"quantize-f32-{dtype}-{scale}", unary_case(BO.QUANTIZE, 1, "f32", None, dtype,
                                                            (scale, zp + offset(dtype)), floats.reshape(1, 1000)))
        for out_type in ("u8", "i8"):
            for (si, zi, so, zo) in ((0.05, 10, 0.07, 3), (0.1, 100, 0.03, 120), (0.02, 200, 0.5, 50),
                                     (0.0078125, 128, 0.0078125, 128)):
                add(f"requantize-{dtype}-{out_type}-{si}-{so}",
                    unary_case(BO.QUANTIZE, 1, dtype, (si, zi + offset(dtype)), out_type, (so, zo + offset(out_type)),
                               values))
            # 250 elements: TFLite's optimized kernel handles the last 250 % 16 differently; a
            # scale ratio below 1/256 keeps XNNPACK from taking a same-type requantization.
            for (si, zi, so, zo) in ((0.02, 200, 0.5, 50), (0.001, 60, 0.5, 130)):
                add(f"requantize-{dtype}-{out_type}-{si}-{so}-250",
                    unary_case(BO.QUANTIZE, 1, dtype, (si, zi + offset(dtype)), out_type, (so, zo + offset(out_type)),
                               np.resize(values, (1, 250))))
        add(f"dequantize-{dtype}", unary_case(BO.DEQUANTIZE, 2, dtype, (0.0371, 17 + offset(dtype)), "f32", None, values))
        for code, name in ((BO.MAX_POOL_2D, "maxpool"), (BO.AVERAGE_POOL_2D, "avgpool")):
            for kernel, stride, pad, act in ((3, 2, "same", 0), (2, 2, "valid", 0), (3, 1, "same", 3), (5, 3, "same", 1)):
                add(f"{name}-{dtype}-k{kernel}-s{stride}-{pad}-act{act}",
                    pool_case(rng, dtype, code, kernel, stride, pad, act, quant=(0.05, 3) if act != 3 else (0.1, 100)))
        for bilinear in (False, True):
            for size, out_size, align, half in (((5, 7), (10, 14), False, True), ((5, 7), (10, 14), False, False),
                                                ((5, 7), (9, 13), True, False), ((6, 6), (4, 9), False, True),
                                                ((3, 4), (8, 8), False, False), ((7, 5), (3, 2), False, True)):
                add(f"resize-{'bilinear' if bilinear else 'nearest'}-{dtype}-{size[0]}x{size[1]}-to-"
                    f"{out_size[0]}x{out_size[1]}-a{int(align)}-h{int(half)}",
                    resize_case(rng, dtype, bilinear, size, out_size, align, half))
    add("concatenation-u8-rescaled-axis3", concat_case(rng, "u8", [(0.05, 120), (0.031, 138), (0.02, 90)], (0.06, 128), 3,
                                                        [[1, 3, 4, 5], [1, 3, 4, 2], [1, 3, 4, 7]]))
    add("concatenation-u8-rescaled-axis1", concat_case(rng, "u8", [(0.079, 191), (0.031, 138)], (0.079, 191), 1,
                                                        [[1, 6, 1, 4], [1, 3, 1, 4]]))
    add("concatenation-i8-same-scale", concat_case(rng, "i8", [(0.05, 120), (0.05, 120)], (0.05, 120), 3,
                                                    [[1, 3, 4, 5], [1, 3, 4, 9]]))
    add("efficientdet-like-int8-block", efficientdet_block(rng))
    base = {"max_detections": 10, "max_classes_per_detection": 1, "nms_score_threshold": 0.05,
            "nms_iou_threshold": 0.5, "num_classes": 5, "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0,
            "w_scale": 5.0}
    add("postprocess-fast-float", postprocess_case(rng, base))
    add("postprocess-fast-float-no-background", postprocess_case(rng, base, background=False))
    add("postprocess-fast-three-classes-ties", postprocess_case(
        rng, dict(base, max_classes_per_detection=3, num_classes=7), classes=7, tie_levels=4))
    add("postprocess-fast-uint8", postprocess_case(rng, dict(base, nms_score_threshold=1e-8), quantized=True))
    add("postprocess-regular-float", postprocess_case(
        rng, dict(base, use_regular_nms=True, detections_per_class=4), anchors_count=96))
    add("postprocess-regular-uint8-ties", postprocess_case(
        rng, dict(base, use_regular_nms=True, max_detections=12, nms_score_threshold=0.1), quantized=True,
        anchors_count=96, tie_levels=6))
    return cases


def ops_golden(rng):
    entries = []
    models_dir = os.path.join(OUT, "models")
    os.makedirs(models_dir, exist_ok=True)
    for name, model_bytes, inputs in tiny_cases(rng):
        with open(os.path.join(models_dir, name + ".tflite"), "wb") as f:
            f.write(model_bytes)
        outputs = {resolver: run(model_bytes, inputs, resolver) for resolver in RESOLVERS}
        entry = {"name": name, "model": "models/" + name + ".tflite",
                 "inputs": [{"type": str(x.dtype), "shape": list(x.shape), "data": b64(x)} for x in inputs],
                 "outputs": {}}
        for resolver, values in outputs.items():
            if resolver not in STORED:
                continue
            entry["outputs"][resolver] = [{"type": str(v.dtype), "shape": [int(d) for d in v.shape], "data": b64(v)}
                                          for v in values]
        def quanta(a, b):
            return [int(np.max(np.abs(x.astype(np.int64) - y.astype(np.int64)))) if x.dtype != np.float32
                    else float(np.max(np.abs(x - y))) for x, y in zip(outputs[a], outputs[b])]
        print(f"  {name}: builtin vs xnnpack {quanta('builtin', 'xnnpack')}, vs reference {quanta('builtin', 'reference')}")
        entries.append(entry)
    with open(os.path.join(OUT, "ops.json"), "w") as f:
        # One case per line: compact, and diffs stay readable.
        f.write('{"reference": "ai-edge-litert 2.3.0, 1 thread", "cases": [\n')
        f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in entries))
        f.write("\n]}\n")


def unsupported_models():
    """Models the engine must reject, naming the operator: an unknown custom operator after a
    supported one, and a builtin operator in a version beyond TFLite's."""
    models_dir = os.path.join(OUT, "models")
    t = Tiny()
    x = t.tensor([1, 4], "u8", 0.5, 3)
    y = t.tensor([1, 4], "f32")
    z = t.tensor([1, 4], "f32")
    t.op(BO.DEQUANTIZE, [x], [y], version=2)
    t.op(BO.CUSTOM, [y], [z], custom=b"", custom_code="VisionTasksUnknownOp")
    t.inputs, t.outputs = [x], [z]
    with open(os.path.join(models_dir, "unsupported-custom-operator.tflite"), "wb") as f:
        f.write(t.build())
    t = Tiny()
    x = t.tensor([1, 4], "u8", 0.5, 3)
    y = t.tensor([1, 4], "u8", 1 / 256, 0)
    t.op(BO.LOGISTIC, [x], [y], version=9)
    t.inputs, t.outputs = [x], [y]
    with open(os.path.join(models_dir, "unsupported-operator-version.tflite"), "wb") as f:
        f.write(t.build())


def main():
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared")
    os.makedirs(OUT, exist_ok=True)
    ssd_golden(shared)
    ops_golden(np.random.default_rng(20261130))
    unsupported_models()


if __name__ == "__main__":
    main()
