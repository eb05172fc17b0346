#!/usr/bin/env python3
"""Captures layers of the models for kernel_parity.c (scripts/platforms/arm64-kernels.sh).

For each model it rewrites the flatbuffer so that every tensor an operator writes is a graph
output (as scripts/reference/op_bit_parity.py does), runs it in LiteRT (XNNPACK, one thread) on a
seeded random input, and writes, for a selection of operators the kernels implement, the
operator's geometry, its input tensors as LiteRT computed them, its weights and LiteRT's output
tensor to one binary file (format: see run_layers in kernel_parity.c). Nothing is written into
the repository; the models are only read.

Selection: per model, the first operator of every distinct (kind, kernel, stride, dilation,
few-output-channels) key whose work stays under a budget, so that the run under qemu stays short.

usage: capture_layers.py MODELS_DIR OUTPUT_FILE
"""
import struct
import sys
import zipfile

import flatbuffers
import numpy as np
from ai_edge_litert import interpreter as litert
from ai_edge_litert import schema_py_generated as schema

MODELS = [
    ("pose_landmarker_full.task", "pose_detector.tflite", -1.0),
    ("pose_landmarker_full.task", "pose_landmarks_detector.tflite", 0.0),
    ("hand_landmarker.task", "hand_detector.tflite", 0.0),
    ("hand_landmarker.task", "hand_landmarks_detector.tflite", 0.0),
    ("blaze_face_short_range.tflite", None, 0.0),
    ("selfie_segmenter.tflite", None, 0.0),
    ("face_landmarker.task", "face_detector.tflite", 0.0),
    ("face_landmarker.task", "face_landmarks_detector.tflite", 0.0),
    ("face_landmarker.task", "face_blendshapes.tflite", 0.0),
    ("ssd_mobilenet_v1.tflite", None, 0.0),
]

# Multiply-adds per captured layer at most (qemu runs every layer in several variants and builds).
MAC_BUDGET = 12_000_000
LAYERS_PER_MODEL = 14

OPS = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
L_CONV, L_DWCONV, L_FC, L_ADD, L_PRELU, L_MAXPOOL, L_AVGPOOL, L_HSWISH, L_SIGMOID = 1, 2, 3, 4, 5, 6, 7, 8, 9
L_QCONV, L_QDWCONV = 20, 21
F32, U8, I8, I32, I16 = 0, 1, 2, 3, 4
DTYPES = {np.dtype(np.float32): F32, np.dtype(np.uint8): U8, np.dtype(np.int8): I8, np.dtype(np.int32): I32,
          np.dtype(np.int16): I16}


def load(models, bundle, member):
    path = f"{models}/{bundle}"
    if member is None:
        with open(path, "rb") as f:
            return f.read()
    with zipfile.ZipFile(path) as z:
        return z.read(member)


def expose_all(model_bytes):
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model_bytes, 0))
    graph = model.subgraphs[0]
    exposed = list(graph.outputs)
    for op in graph.operators:
        for t in op.outputs:
            if t not in exposed:
                exposed.append(t)
    graph.outputs = exposed
    builder = flatbuffers.Builder(len(model_bytes) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output()), model, exposed


def splitmix_input(seed, count, low):
    """Seeded input in [low, 1] (SplitMix64, as make_inference_golden.py)."""
    state = np.uint64(seed)
    out = np.empty(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        idx = np.arange(1, count + 1, dtype=np.uint64)
        z = state + idx * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        out = z ^ (z >> np.uint64(31))
    k = (out >> np.uint64(48)).astype(np.float64)
    return (low + (1.0 - low) * (k / 65536.0)).astype(np.float32)


def clamp_of(activation, quant=None):
    """(lo, hi) of a fused activation; for quantized outputs in the quantized domain."""
    A = schema.ActivationFunctionType
    if quant is None:
        return {A.NONE: (-np.inf, np.inf), A.RELU: (0.0, np.inf), A.RELU6: (0.0, 6.0),
                A.RELU_N1_TO_1: (-1.0, 1.0)}.get(activation)
    scale, zp, qmin, qmax = quant
    lo, hi = qmin, qmax
    if activation in (A.RELU, A.RELU6, A.RELU_N1_TO_1):
        low = -1.0 if activation == A.RELU_N1_TO_1 else 0.0
        lo = max(qmin, zp + int(round(low / scale)))
        if activation == A.RELU6:
            hi = min(qmax, zp + int(round(6.0 / scale)))
        elif activation == A.RELU_N1_TO_1:
            hi = min(qmax, zp + int(round(1.0 / scale)))
    elif activation != A.NONE:
        return None
    return float(lo), float(hi)


def same_padding(size, kernel, stride, dilation, padding, out):
    if padding == schema.Padding.VALID:
        return 0
    extent = (kernel - 1) * dilation + 1
    total = max((out - 1) * stride + extent - size, 0)
    return total // 2


class Writer:
    def __init__(self, path):
        self.f = open(path, "wb")
        self.f.write(b"VKL1")
        self.count = 0

    def record(self, kind, label, params, fparams, arrays):
        p = list(params) + [0] * (24 - len(params))
        fp = list(fparams) + [0.0] * (4 - len(fparams))
        name = label.encode()[:255]
        self.f.write(struct.pack("<II", kind, len(name)) + name)
        self.f.write(struct.pack("<24q", *p))
        self.f.write(struct.pack("<4f", *fp))
        self.f.write(struct.pack("<I", len(arrays)))
        for a in arrays:
            a = np.ascontiguousarray(a)
            self.f.write(struct.pack("<IQ", DTYPES[a.dtype], a.size))
            self.f.write(a.astype(a.dtype.newbyteorder("<")).tobytes())
        self.count += 1


def quant_params(tensor):
    q = tensor.quantization
    return np.array(q.scale, dtype=np.float64), np.array(q.zeroPoint, dtype=np.int64)


def capture(models, bundle, member, low, writer):
    original = load(models, bundle, member)
    modified, model, exposed = expose_all(original)
    graph = model.subgraphs[0]
    interp = litert.Interpreter(model_content=modified, num_threads=1)
    interp.allocate_tensors()
    detail = interp.get_input_details()[0]
    shape = [int(d) for d in detail["shape"]]
    if detail["dtype"] == np.uint8:
        data = (splitmix_input(7, int(np.prod(shape)), 0.0) * 255).astype(np.uint8)
    else:
        data = splitmix_input(7, int(np.prod(shape)), low)
    interp.set_tensor(detail["index"], data.reshape(shape))
    interp.invoke()
    values = {graph.inputs[0]: data.reshape(shape)}
    for d in interp.get_output_details():  # "index" is the tensor's index in the graph
        values[d["index"]] = interp.get_tensor(d["index"]).copy()

    # Weights stored as float16 (or sparse) reach the operators through DEQUANTIZE / DENSIFY, whose
    # outputs LiteRT's XNNPACK delegate folds away: read those from the model instead.
    producers = {}
    for op in graph.operators:
        code = model.operatorCodes[op.opcodeIndex]
        producers[op.outputs[0]] = (OPS.get(max(code.builtinCode, code.deprecatedBuiltinCode)), op)

    def tensor(t):
        kind, op = producers.get(t, (None, None))
        if kind == "DEQUANTIZE":
            source = tensor(op.inputs[0])
            return None if source is None or source.dtype != np.float32 else source
        if kind == "DENSIFY":
            return None
        if t in values:
            return values[t]
        info = graph.tensors[t]
        buf = model.buffers[info.buffer].data
        if buf is None or len(buf) == 0:
            return None
        dtype = {schema.TensorType.FLOAT32: np.float32, schema.TensorType.FLOAT16: np.float16,
                 schema.TensorType.UINT8: np.uint8, schema.TensorType.INT8: np.int8,
                 schema.TensorType.INT32: np.int32}.get(info.type)
        if dtype is None:
            return None
        a = np.frombuffer(bytes(bytearray(buf)), dtype=dtype).reshape(info.shape)
        return a.astype(np.float32) if dtype == np.float16 else a

    name = member or bundle
    seen = set()
    taken = 0
    for index, op in enumerate(graph.operators):
        if taken >= LAYERS_PER_MODEL:
            break
        code = model.operatorCodes[op.opcodeIndex]
        kind = OPS.get(max(code.builtinCode, code.deprecatedBuiltinCode), "?")
        ins = [t for t in op.inputs]
        out = op.outputs[0]
        o = op.builtinOptions
        try:
            record = describe(kind, o, ins, out, tensor, graph)
        except Exception as error:  # an operator form the kernels do not take: not captured
            print(f"  {name}#{index} {kind}: not captured ({error})")
            record = None
        if record is None:
            continue
        key, macs, layer_kind, params, fparams, arrays = record
        if key in seen or macs > MAC_BUDGET:
            continue
        seen.add(key)
        taken += 1
        writer.record(layer_kind, f"{name}#{index}:{kind}", params, fparams, arrays)
    print(f"  {name}: {taken} layers")


def describe(kind, o, ins, out, tensor, graph):
    """(key, macs, layer kind, params, fparams, arrays) for operator `kind`, or None."""
    if kind not in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "PRELU", "MAX_POOL_2D",
                    "AVERAGE_POOL_2D", "HARD_SWISH", "LOGISTIC"):
        return None
    y = tensor(out)
    if y is None:
        return None
    x = tensor(ins[0])
    if x is None:
        return None
    if kind in ("CONV_2D", "DEPTHWISE_CONV_2D") and x.dtype == np.float32:
        w = tensor(ins[1])
        b = tensor(ins[2]) if len(ins) > 2 and ins[2] >= 0 else None
        if w is None or x.ndim != 4:
            return None
        batch, H, W, C = x.shape
        _, OH, OW, N = y.shape
        KH, KW = w.shape[1], w.shape[2]
        sh, sw, dh, dw = o.strideH, o.strideW, o.dilationHFactor, o.dilationWFactor
        clamp = clamp_of(o.fusedActivationFunction)
        if clamp is None:
            return None
        pt = same_padding(H, KH, sh, dh, o.padding, OH)
        pl = same_padding(W, KW, sw, dw, o.padding, OW)
        params = [batch, H, W, C, OH, OW, KH, KW, sh, sw, dh, dw, pt, pl, N]
        if kind == "CONV_2D":
            if w.shape[3] != C:
                return None
            bias = b.astype(np.float32) if b is not None else np.zeros(0, np.float32)
            macs = batch * OH * OW * N * KH * KW * C
            key = ("conv", KH, KW, sh, dh, N <= 4, C < 8)
            return key, macs * 4, L_CONV, params, clamp, [x.astype(np.float32), w.astype(np.float32), bias, y]
        if N != C:  # depth multiplier 1 only
            return None
        taps = w.reshape(KH * KW, C).astype(np.float32)
        bias = b.astype(np.float32) if b is not None else np.zeros(C, np.float32)
        weights = np.concatenate([taps.reshape(-1), bias])
        macs = batch * OH * OW * C * KH * KW
        key = ("dw", KH, KW, sh, dh)
        return key, macs, L_DWCONV, params, clamp, [x, weights, y]
    if kind in ("CONV_2D", "DEPTHWISE_CONV_2D") and x.dtype in (np.uint8, np.int8):
        w = tensor(ins[1])
        b = tensor(ins[2]) if len(ins) > 2 and ins[2] >= 0 else None
        if w is None or x.ndim != 4:
            return None
        xs, xz = quant_params(graph.tensors[ins[0]])
        ws, wz = quant_params(graph.tensors[ins[1]])
        ys, yz = quant_params(graph.tensors[out])
        signed = x.dtype == np.int8
        qmin, qmax = (-128, 127) if signed else (0, 255)
        clamp = clamp_of(o.fusedActivationFunction, (float(ys[0]), int(yz[0]), qmin, qmax))
        if clamp is None:
            return None
        batch, H, W, C = x.shape
        _, OH, OW, N = y.shape
        KH, KW = w.shape[1], w.shape[2]
        sh, sw, dh, dw = o.strideH, o.strideW, o.dilationHFactor, o.dilationWFactor
        pt = same_padding(H, KH, sh, dh, o.padding, OH)
        pl = same_padding(W, KW, sw, dw, o.padding, OW)
        params = [batch, H, W, C, OH, OW, KH, KW, sh, sw, dh, dw, pt, pl, N, int(signed), int(xz[0]), int(yz[0])]
        raw = w.astype(np.int64)
        bias = b.astype(np.int64) if b is not None else np.zeros(N, np.int64)
        # Per-channel (or per-tensor) scales in float32: input scale x filter scale / output scale.
        wscale = ws if ws.size == N else np.full(N, ws[0])
        wzero = wz if wz.size == N else np.full(N, wz[0])
        scales = (xs[0] * wscale / ys[0]).astype(np.float32)
        if kind == "CONV_2D":
            if w.shape[3] != C:
                return None
            wm = (raw.reshape(N, -1) - wzero[:, None]).astype(np.int16)  # OHWI rows
            folded = (bias - int(xz[0]) * wm.astype(np.int64).sum(axis=1)).astype(np.int32)
            macs = batch * OH * OW * N * KH * KW * C
            key = ("qconv", KH, KW, sh)
            return key, macs, L_QCONV, params, clamp, [x, wm, folded, scales, y]
        if N != C:
            return None
        wt = (raw.reshape(KH * KW, C) - wzero[None, :]).astype(np.int16)
        macs = batch * OH * OW * C * KH * KW
        key = ("qdw", KH, KW, sh)
        return key, macs, L_QDWCONV, params, clamp, [x, wt, bias.astype(np.int32), scales, y]
    if x.dtype != np.float32:
        return None
    if kind == "FULLY_CONNECTED":
        w = tensor(ins[1])
        b = tensor(ins[2]) if len(ins) > 2 and ins[2] >= 0 else None
        if w is None or w.ndim != 2 or o.keepNumDims:
            return None
        N, K = w.shape
        rows = x.size // K
        clamp = clamp_of(o.fusedActivationFunction)
        if clamp is None or x.size % K:
            return None
        bias = b.astype(np.float32) if b is not None else np.zeros(0, np.float32)
        params = [rows, 1, 1, K, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, N]
        return ("fc",), rows * N * K, L_FC, params, clamp, [x.reshape(-1), w.astype(np.float32), bias, y]
    if kind == "ADD":
        x2 = tensor(ins[1])
        clamp = clamp_of(o.fusedActivationFunction)
        if x2 is None or x2.shape != x.shape or clamp is None:
            return None
        C = x.shape[-1]
        return ("add",), x.size, L_ADD, [1, 1, 1, C], clamp, [x.reshape(-1), x2.reshape(-1), y]
    if kind == "PRELU":
        alpha = tensor(ins[1])
        C = x.shape[-1]
        if alpha is None or alpha.size != C:
            return None
        return ("prelu",), x.size, L_PRELU, [1, 1, 1, C], (0, 0), [x.reshape(-1), alpha.reshape(-1).astype(np.float32), y]
    if kind in ("MAX_POOL_2D", "AVERAGE_POOL_2D"):
        clamp = clamp_of(o.fusedActivationFunction)
        if clamp is None or x.ndim != 4:
            return None
        batch, H, W, C = x.shape
        _, OH, OW, _ = y.shape
        KH, KW, sh, sw = o.filterHeight, o.filterWidth, o.strideH, o.strideW
        pt = same_padding(H, KH, sh, 1, o.padding, OH)
        pl = same_padding(W, KW, sw, 1, o.padding, OW)
        params = [batch, H, W, C, OH, OW, KH, KW, sh, sw, 1, 1, pt, pl, C]
        lk = L_MAXPOOL if kind == "MAX_POOL_2D" else L_AVGPOOL
        return (kind, KH, sh), y.size * KH * KW, lk, params, clamp, [x, y]
    if kind in ("HARD_SWISH", "LOGISTIC"):
        lk = L_HSWISH if kind == "HARD_SWISH" else L_SIGMOID
        return (kind,), x.size, lk, [1, 1, 1, 1], (0, 0), [x.reshape(-1), y]
    return None


def main():
    models, output = sys.argv[1], sys.argv[2]
    writer = Writer(output)
    for bundle, member, low in MODELS:
        try:
            capture(models, bundle, member, low, writer)
        except FileNotFoundError:
            print(f"  {member or bundle}: absent, skipped")
    writer.f.close()
    print(f"captured {writer.count} layers")


if __name__ == "__main__":
    main()
