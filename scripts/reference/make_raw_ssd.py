#!/usr/bin/env python3
"""Derives a two-output ("raw", post-processing outside the graph) SSD detector from the quantized
SSD MobileNet v1 (ssd_mobilenet_v1.tflite, which ends in the custom op TFLite_Detection_PostProcess).

usage: make_raw_ssd.py OUT.tflite [--source FILE] [--no-metadata] [--check [IMAGE]] [--compare-anchors]
  (run with ~/.cache/mediapipe-oracle-venv/bin/python; default source:
   <repo>/../shared/models/ssd_mobilenet_v1.tflite)

The graph edit (TFLite schema object API, file identifier "TFL3"):
  * TFLite_Detection_PostProcess is removed, with its four outputs and its anchors constant;
  * output 0 "location": DEQUANTIZE(box encodings uint8 [1,1917,4]) -> float32 [1,1917,4],
    per box (ty, tx, th, tw) relative to its anchor;
  * output 1 "score": DEQUANTIZE(class predictions uint8 [1,1917,91], already through LOGISTIC)
    -> float32 [1,1917,91], then STRIDED_SLICE begin [0,0,1] end [1,1917,91] strides [1,1,1]
    (constant int32 inputs, all masks 0) -> float32 [1,1917,90]: the background column is dropped,
    as the op does (label offset 1), so class i here is class i of the op's output.
  Only DEQUANTIZE (version 1: uint8 -> float32) and STRIDED_SLICE (version 1: float32) are added.
  Unused tensors, buffers and operator codes are dropped, the old TFLITE_METADATA entry and
  buffer and the appended label zip are stripped.

Metadata (default; --no-metadata writes the bare graph, no metadata, no zip) is attached with
mediapipe's own writer, metadata_writers.object_detector.MetadataWriter.create_for_models_without_nms:
  * input "image": normalization mean 127.5 / std 127.5 as in the original model (uint8 input, so
    MediaPipe does not apply it), RGB;
  * outputs in the order LOCATION_SCORE: "location" (BoundingBoxProperties BOUNDARIES, RATIO,
    index [1,0,3,2]) and "score" (labels.txt, TENSOR_AXIS_LABELS = the original labelmap.txt, 90
    lines, line i = class i; the original maps its category value i to line i too, e.g. 0 -> person);
  * custom metadata "DETECTOR_METADATA" (identifier "V001"): the 1917 anchors dequantized from the
    op's anchors constant ((q - zero_point) * scale in float32; stored y, x, h, w -> written as
    x_center, y_center, width, height) and TensorsDecodingOptions from the op's custom options
    (flexbuffer: y_scale 10, x_scale 10, h_scale 5, w_scale 5, num_classes 90): num_boxes 1917,
    num_coords 4, keypoint_coord_offset 0, num_keypoints 0, num_values_per_keypoint 2,
    apply_exponential_on_box_size True, sigmoid_score False.

What MediaPipe 1.2.3 needs (it accepted the first model written this way; the rules below are from
its detection_postprocessing_graph.cc / tensors_to_detections_calculator.cc, the starred ones also tried):
  * exactly 2 subgraph outputs (2 = post-processing outside the model, 4 = inside) and 2 output tensor
    metadata, found by the metadata names "location" and "score" (else positions 0 and 1, with a warning);
  * "location" metadata: BoundingBoxProperties with type BOUNDARIES and coordinate type RATIO (index, if
    present, must have 4 entries; it is not used here: the raw box order is always y, x, h, w);
  * labels as a TENSOR_AXIS_LABELS file on "score" (a TENSOR_VALUE_LABELS file is not looked at there);
  * the custom metadata "DETECTOR_METADATA" with tensors_decoding_options and fixed anchors (without it:
    "TensorsDecodingOptions is not found in the object detector metadata.");
  * num_values_per_keypoint == 2 and num_keypoints * num_values_per_keypoint + 4 == num_coords are
    ABSL_CHECKs: (*) num_values_per_keypoint 0 aborts the whole process (SIGABRT, "Check failed:
    options_.num_values_per_keypoint() == 2 (0 vs. 2)"), so 2 is written although there are no keypoints;
  * output shapes [1, num_boxes, num_coords] and [1, num_boxes, num_classes], float32.
  Decoding and NMS are then fixed: box format YXHW, min_suppression_threshold from the options (0.3),
  IoU, greedy, max_num_detections = max_results; score threshold = the option, else a
  ScoreThresholdingOptions process unit, else -FLT_MAX.
Two things about the 1.2.3 wheel itself:
  * it lacks the native module mediapipe.tasks.cc.metadata.python._pywrap_metadata_version that
    metadata.py imports (so importing the metadata writers fails); this script registers a stand-in
    first (min_parser_version computed here from the features the metadata uses: 1.5.0 with custom
    metadata, per the schema's changelog);
  * its writer appends labels.txt with a zip time stamp of "now"; the appended zip is rewritten here with
    a fixed time stamp so that the output is the same bytes on every run.

--compare-anchors compares the op's anchors with the classic MobileNet-SSD anchor generator
configuration (CLASSIC_SSD below): they are that configuration quantized to uint8.

--check [IMAGE] (default: <repo>/../shared/images/decoded/od_test_image.png) verifies the result with
LiteRT (ai-edge-litert): the new outputs equal the dequantized inputs of the original model's
post-processing op, and the op's 10 detections are reproduced by decoding "location" with the anchors
and scales written into the metadata.
"""
import argparse
import hashlib
import io
import math
import os
import sys
import types
import zipfile

import numpy as np
from flatbuffers import flexbuffers

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_SOURCE = os.path.join(REPO, "..", "shared", "models", "ssd_mobilenet_v1.tflite")
DEFAULT_IMAGE = os.path.join(REPO, "..", "shared", "images", "decoded", "od_test_image.png")
POSTPROCESS_OP = b"TFLite_Detection_PostProcess"
ZIP_DATE = (2020, 6, 26, 1, 46, 0)      # the original labelmap.txt's zip time stamp


def schema():
    from mediapipe.tasks.metadata import schema_py_generated as S
    return S


# ------------------------------------------------------------------ metadata version stand-in
def _min_parser_version(metadata_buf):
    """Minimum metadata parser version for the features used (metadata_schema.fbs changelog)."""
    from mediapipe.tasks.metadata import metadata_schema_py_generated as M
    md = M.ModelMetadataT.InitFromObj(M.ModelMetadata.GetRootAsModelMetadata(bytes(metadata_buf), 0))
    version = (1, 0, 0)

    def need(v):
        nonlocal version
        version = max(version, v)

    def files(fs):
        for f in fs or []:
            if f.type == M.AssociatedFileType.VOCABULARY:
                need((1, 0, 1))
            if f.type == M.AssociatedFileType.SCANN_INDEX_FILE:
                need((1, 4, 0))
            if f.version is not None:
                need((1, 4, 1))

    def units(us):
        for u in us or []:
            if u.optionsType in (M.ProcessUnitOptions.BertTokenizerOptions,
                                 M.ProcessUnitOptions.SentencePieceTokenizerOptions):
                need((1, 1, 0))
            if u.optionsType == M.ProcessUnitOptions.RegexTokenizerOptions:
                need((1, 2, 1))

    files(md.associatedFiles)
    for sg in md.subgraphMetadata or []:
        files(sg.associatedFiles)
        if sg.inputProcessUnits or sg.outputProcessUnits:
            need((1, 1, 0))
        units(sg.inputProcessUnits)
        units(sg.outputProcessUnits)
        if sg.inputTensorGroups or sg.outputTensorGroups:
            need((1, 2, 0))
        if sg.customMetadata:
            need((1, 5, 0))
        for t in (sg.inputTensorMetadata or []) + (sg.outputTensorMetadata or []):
            files(t.associatedFiles)
            units(t.processUnits)
            if t.content is not None and t.content.contentPropertiesType == M.ContentProperties.AudioProperties:
                need((1, 3, 0))
    return "%d.%d.%d" % version


def import_object_detector_writer():
    """mediapipe's object detector metadata writer; the 1.2.3 wheel lacks one native module that
    metadata.py imports, so a pure-Python stand-in is registered first when needed."""
    try:
        from mediapipe.tasks.cc.metadata.python import _pywrap_metadata_version  # noqa: F401
    except ImportError:
        names = ["mediapipe.tasks.cc", "mediapipe.tasks.cc.metadata", "mediapipe.tasks.cc.metadata.python"]
        for n in names:
            sys.modules.setdefault(n, types.ModuleType(n))
        stub = types.ModuleType(names[-1] + "._pywrap_metadata_version")
        stub.GetMinimumMetadataParserVersion = _min_parser_version
        sys.modules[stub.__name__] = stub
        sys.modules[names[-1]]._pywrap_metadata_version = stub
    from mediapipe.tasks.python.metadata.metadata_writers import metadata_info, metadata_writer, object_detector
    return object_detector, metadata_writer, metadata_info


# ------------------------------------------------------------------ source model
def read_source(path):
    """(ModelT, source bytes, labels) of the original model."""
    S = schema()
    data = open(path, "rb").read()
    model = S.ModelT.InitFromObj(S.Model.GetRootAsModel(data, 0))
    labels = None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = [n for n in z.namelist() if n.endswith(".txt")]
            if names:
                labels = z.read(names[0]).decode("utf-8").splitlines()
    except zipfile.BadZipFile:
        pass
    return model, data, labels


def tensor_data(model, t):
    S = schema()
    dtype = {S.TensorType.FLOAT32: np.float32, S.TensorType.UINT8: np.uint8,
             S.TensorType.INT8: np.int8, S.TensorType.INT32: np.int32}[t.type]
    raw = np.asarray(model.buffers[t.buffer].data, dtype=np.uint8).tobytes()
    return np.frombuffer(raw, dtype=dtype).reshape([int(d) for d in t.shape])


def dequantized(model, t):
    q = tensor_data(model, t)
    if t.type == schema().TensorType.FLOAT32:
        return q.astype(np.float32)
    scale = np.float32(t.quantization.scale[0])
    zp = np.int32(t.quantization.zeroPoint[0])
    return (q.astype(np.int32) - zp).astype(np.float32) * scale


def find_postprocess(model):
    sg = model.subgraphs[0]
    for k, op in enumerate(sg.operators):
        code = model.operatorCodes[op.opcodeIndex]
        if code.customCode == POSTPROCESS_OP:
            return k, op
    raise SystemExit(f"no {POSTPROCESS_OP.decode()} operator in the source model")


# ------------------------------------------------------------------ graph edit
def derive_graph(model):
    """Edits `model` in place; returns (anchors yxhw float32 [N,4], op options dict, num_classes)."""
    S = schema()
    sg = model.subgraphs[0]
    k, op = find_postprocess(model)
    box_i, cls_i, anchors_i = [int(v) for v in op.inputs[:3]]
    opts = flexbuffers.Loads(bytes(np.asarray(op.customOptions, dtype=np.uint8).tobytes()))
    anchors = dequantized(model, sg.tensors[anchors_i]).reshape(-1, 4)
    box_t, cls_t = sg.tensors[box_i], sg.tensors[cls_i]
    _, n, c1 = [int(d) for d in cls_t.shape]
    num_classes = int(opts["num_classes"])
    if c1 != num_classes + 1 or [int(d) for d in box_t.shape] != [1, n, 4] or anchors.shape != (n, 4):
        raise SystemExit(f"unexpected shapes: boxes {list(box_t.shape)}, classes {list(cls_t.shape)}, "
                         f"anchors {list(anchors.shape)}")
    for t in (box_t, cls_t):
        if t.type != S.TensorType.UINT8 or len(t.quantization.scale) != 1:
            raise SystemExit("expected uint8 box encodings and class predictions with one scale")
    del sg.operators[k]

    # New buffers and tensors.
    def add_buffer(arr=None):
        b = S.BufferT()
        if arr is not None:
            b.data = np.frombuffer(np.ascontiguousarray(arr).tobytes(), dtype=np.uint8)
        model.buffers.append(b)
        return len(model.buffers) - 1

    def add_tensor(name, shape, ttype, data=None):
        t = S.TensorT()
        t.name = name.encode()
        t.shape = np.array(shape, dtype=np.int32)
        t.type = ttype
        t.buffer = add_buffer(data)
        sg.tensors.append(t)
        return len(sg.tensors) - 1

    def add_code(builtin, version):
        for idx, oc in enumerate(model.operatorCodes):
            if max(oc.builtinCode, oc.deprecatedBuiltinCode) == builtin and oc.customCode is None \
                    and oc.version == version:
                return idx
        oc = S.OperatorCodeT()
        oc.builtinCode = builtin
        oc.deprecatedBuiltinCode = builtin        # < 127: both fields hold the code
        oc.version = version
        model.operatorCodes.append(oc)
        return len(model.operatorCodes) - 1

    def add_op(builtin, inputs, outputs, options_type, options):
        o = S.OperatorT()
        o.opcodeIndex = add_code(builtin, 1)
        o.inputs = np.array(inputs, dtype=np.int32)
        o.outputs = np.array(outputs, dtype=np.int32)
        o.builtinOptionsType = options_type
        o.builtinOptions = options
        sg.operators.append(o)

    f32, i32 = S.TensorType.FLOAT32, S.TensorType.INT32
    location = add_tensor("location", [1, n, 4], f32)
    scores_all = add_tensor("class_predictions_dequantized", [1, n, c1], f32)
    begin = add_tensor("score_slice_begin", [3], i32, np.array([0, 0, 1], dtype="<i4"))
    end = add_tensor("score_slice_end", [3], i32, np.array([1, n, c1], dtype="<i4"))
    strides = add_tensor("score_slice_strides", [3], i32, np.array([1, 1, 1], dtype="<i4"))
    score = add_tensor("score", [1, n, num_classes], f32)
    add_op(S.BuiltinOperator.DEQUANTIZE, [box_i], [location],
           S.BuiltinOptions.DequantizeOptions, S.DequantizeOptionsT())
    add_op(S.BuiltinOperator.DEQUANTIZE, [cls_i], [scores_all],
           S.BuiltinOptions.DequantizeOptions, S.DequantizeOptionsT())
    ss = S.StridedSliceOptionsT()             # all masks 0, offset False (the defaults)
    add_op(S.BuiltinOperator.STRIDED_SLICE, [scores_all, begin, end, strides], [score],
           S.BuiltinOptions.StridedSliceOptions, ss)
    sg.outputs = np.array([location, score], dtype=np.int32)

    # Strip metadata and signatures, then drop everything no longer referenced.
    model.metadata = None
    model.metadataBuffer = None
    model.signatureDefs = None
    compact(model)
    return anchors, opts, num_classes


def compact(model):
    """Drops unreferenced tensors, buffers (buffer 0 stays the empty sentinel) and operator codes."""
    sg = model.subgraphs[0]
    used = set(int(v) for v in sg.inputs) | set(int(v) for v in sg.outputs)
    for op in sg.operators:
        used |= set(int(v) for v in op.inputs if v >= 0) | set(int(v) for v in op.outputs)
    tmap = {old: new for new, old in enumerate(sorted(used))}
    sg.tensors = [sg.tensors[old] for old in sorted(used)]

    def remap(arr):
        return np.array([tmap[int(v)] if v >= 0 else -1 for v in arr], dtype=np.int32)

    for op in sg.operators:
        op.inputs, op.outputs = remap(op.inputs), remap(op.outputs)
    sg.inputs, sg.outputs = remap(sg.inputs), remap(sg.outputs)

    bused = sorted({0} | {int(t.buffer) for t in sg.tensors})
    bmap = {old: new for new, old in enumerate(bused)}
    model.buffers = [model.buffers[old] for old in bused]
    for t in sg.tensors:
        t.buffer = bmap[int(t.buffer)]

    cused = sorted({int(op.opcodeIndex) for op in sg.operators})
    cmap = {old: new for new, old in enumerate(cused)}
    model.operatorCodes = [model.operatorCodes[old] for old in cused]
    for op in sg.operators:
        op.opcodeIndex = cmap[int(op.opcodeIndex)]


def pack(model):
    import flatbuffers
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), b"TFL3")
    return bytes(b.Output())


# ------------------------------------------------------------------ metadata
def add_metadata(graph_bytes, anchors, opts, num_classes, labels):
    od, mw, mi = import_object_detector_writer()
    n = anchors.shape[0]
    fixed = od.FixedAnchorsSchema(anchors=[
        od.FixedAnchor(x_center=float(a[1]), y_center=float(a[0]), width=float(a[3]), height=float(a[2]))
        for a in anchors])
    decoding = od.TensorsDecodingOptions(
        num_classes=num_classes, num_boxes=n, num_coords=4, keypoint_coord_offset=0, num_keypoints=0,
        num_values_per_keypoint=2, x_scale=float(opts["x_scale"]), y_scale=float(opts["y_scale"]),
        w_scale=float(opts["w_scale"]), h_scale=float(opts["h_scale"]),
        apply_exponential_on_box_size=True, sigmoid_score=False)
    writer = od.MetadataWriter.create_for_models_without_nms(
        bytearray(graph_bytes), input_norm_mean=[127.5], input_norm_std=[127.5],
        labels=mw.Labels().add(labels),
        ssd_anchors_options=od.SsdAnchorsOptions(fixed_anchors_schema=fixed),
        tensors_decoding_options=decoding,
        output_tensors_order=mi.RawDetectionOutputTensorsOrder.LOCATION_SCORE)
    data, _json = writer.populate()
    return deterministic_zip(bytes(data))


def deterministic_zip(data):
    """Rewrites the appended zip of associated files with a fixed time stamp (same bytes every run)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        start = min(i.header_offset for i in infos)
        members = [(i.filename, z.read(i)) for i in infos]
    out = io.BytesIO()
    out.write(data[:start])
    with zipfile.ZipFile(out, "a") as z:
        for name, content in members:
            zi = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            zi.compress_type = zipfile.ZIP_STORED
            zi.external_attr = 0o600 << 16
            z.writestr(zi, content)
    return out.getvalue()


# ------------------------------------------------------------------ check with LiteRT
def check(source, derived, image_path, anchors, opts):
    import cv2
    from ai_edge_litert.interpreter import Interpreter
    S = schema()
    src_model, _, _ = read_source(source)
    _, op = find_postprocess(src_model)
    box_i, cls_i = int(op.inputs[0]), int(op.inputs[1])
    sg = src_model.subgraphs[0]

    px = cv2.cvtColor(cv2.imread(image_path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    x = cv2.resize(px, (300, 300), interpolation=cv2.INTER_AREA)[None].astype(np.uint8)

    orig = Interpreter(model_content=open(source, "rb").read(), experimental_preserve_all_tensors=True)
    orig.allocate_tensors()
    orig.set_tensor(orig.get_input_details()[0]["index"], x)
    orig.invoke()

    def deq(i):
        t = sg.tensors[i]
        q = orig.get_tensor(i)
        return (q.astype(np.int32) - np.int32(t.quantization.zeroPoint[0])).astype(np.float32) \
            * np.float32(t.quantization.scale[0])

    want_loc, want_all = deq(box_i), deq(cls_i)
    outs = [orig.get_tensor(d["index"]) for d in orig.get_output_details()]
    boxes, classes, scores, count = outs[0][0], outs[1][0], outs[2][0], int(outs[3][0])

    new = Interpreter(model_content=derived)
    new.allocate_tensors()
    new.set_tensor(new.get_input_details()[0]["index"], x)
    new.invoke()
    det = new.get_output_details()
    loc = new.get_tensor(det[0]["index"])
    score = new.get_tensor(det[1]["index"])
    print(f"check on {os.path.basename(image_path)} (300x300 INTER_AREA):")
    print(f"  location == dequantized op input 0: {np.array_equal(loc, want_loc)} "
          f"(max |diff| {float(np.abs(loc - want_loc).max()):.3g})")
    print(f"  score == dequantized op input 1 [:, :, 1:]: {np.array_equal(score, want_all[:, :, 1:])} "
          f"(max |diff| {float(np.abs(score - want_all[:, :, 1:]).max()):.3g})")

    # Decode every anchor with the metadata's scales and match the op's detections.
    t = loc[0].astype(np.float64)
    a = anchors.astype(np.float64)          # y, x, h, w
    yc = t[:, 0] / opts["y_scale"] * a[:, 2] + a[:, 0]
    xc = t[:, 1] / opts["x_scale"] * a[:, 3] + a[:, 1]
    h = np.exp(t[:, 2] / opts["h_scale"]) * a[:, 2]
    w = np.exp(t[:, 3] / opts["w_scale"]) * a[:, 3]
    dec = np.stack([yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2], axis=1)
    worst = 0.0
    for k in range(count):
        c = int(classes[k])
        cand = np.nonzero(np.abs(score[0, :, c] - scores[k]) < 1e-6)[0]
        if len(cand) == 0:
            raise SystemExit(f"detection {k}: no anchor has class {c} score {scores[k]}")
        d = np.abs(dec[cand] - boxes[k]).max(axis=1)
        worst = max(worst, float(d.min()))
    print(f"  op's {count} detections: each = an anchor's decoded box (max |diff| {worst:.2g}, "
          f"normalised) with score[anchor, class] == op score, class index unchanged")


# ------------------------------------------------------------------ SSD anchor generator comparison
CLASSIC_SSD = dict(num_layers=6, min_scale=0.2, max_scale=0.95, input_size=300,
                   strides=(16, 32, 64, 128, 256, 512), aspect_ratios=(1.0, 2.0, 0.5, 3.0, 0.3333),
                   reduce_boxes_in_lowest_layer=True, interpolated_scale_aspect_ratio=1.0, anchor_offset=0.5)


def ssd_anchors(num_layers, min_scale, max_scale, input_size, strides, aspect_ratios,
                reduce_boxes_in_lowest_layer, interpolated_scale_aspect_ratio, anchor_offset):
    """[N, 4] (x_center, y_center, width, height) in float64 from the SSD anchor generator description:
    layer k has scale min + (max - min) * k / (L - 1) on a ceil(input / stride) square grid; per cell
    (row-major) the lowest layer, when reduced, has (ratio 1.0 at 0.1, 2.0 and 0.5 at its scale), the
    others every aspect ratio at their scale plus the interpolated ratio at sqrt(scale_k * scale_k+1)
    (1.0 after the last layer); width = scale * sqrt(ratio), height = scale / sqrt(ratio)."""
    def scale(k):
        return min_scale + (max_scale - min_scale) * k / (num_layers - 1)

    rows = []
    for k in range(num_layers):
        if k == 0 and reduce_boxes_in_lowest_layer:
            boxes = [(0.1, 1.0), (scale(k), 2.0), (scale(k), 0.5)]
        else:
            boxes = [(scale(k), r) for r in aspect_ratios]
            if interpolated_scale_aspect_ratio > 0:
                following = 1.0 if k == num_layers - 1 else scale(k + 1)
                boxes.append((math.sqrt(scale(k) * following), interpolated_scale_aspect_ratio))
        grid = math.ceil(input_size / strides[k])
        for y in range(grid):
            for x in range(grid):
                for s, r in boxes:
                    rows.append(((x + anchor_offset) / grid, (y + anchor_offset) / grid,
                                 s * math.sqrt(r), s / math.sqrt(r)))
    return np.array(rows, dtype=np.float64)


def compare_anchors(model):
    sg = model.subgraphs[0]
    _, op = find_postprocess(model)
    t = sg.tensors[int(op.inputs[2])]
    stored = dequantized(model, t).reshape(-1, 4)[:, [1, 0, 3, 2]].astype(np.float64)   # -> x, y, w, h
    generated = ssd_anchors(**CLASSIC_SSD)
    print(f"anchors vs the classic MobileNet-SSD generator {CLASSIC_SSD}:")
    if generated.shape != stored.shape:
        print(f"  different counts: generated {generated.shape[0]}, model {stored.shape[0]}")
        return
    diff = np.abs(generated - stored)
    print(f"  {generated.shape[0]} anchors; max |generated - model| = {diff.max():.6g} "
          f"(x {diff[:, 0].max():.3g}, y {diff[:, 1].max():.3g}, w {diff[:, 2].max():.3g}, h {diff[:, 3].max():.3g})")
    if t.type == schema().TensorType.UINT8:
        scale = float(t.quantization.scale[0])
        zp = int(t.quantization.zeroPoint[0])
        q = np.clip(np.round(generated[:, [1, 0, 3, 2]] / scale) + zp, 0, 255).astype(np.uint8)
        same = np.array_equal(q, tensor_data(model, t).reshape(-1, 4))
        print(f"  model anchors are uint8 (scale {scale:.9g}, zero point {zp}); the generated anchors quantized "
              f"with them {'equal' if same else 'differ from'} the stored bytes; max diff = "
              f"{diff.max() / scale:.3f} quantization steps")


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--source", default=DEFAULT_SOURCE)
    ap.add_argument("--no-metadata", action="store_true", help="write the bare graph (no metadata, no zip)")
    ap.add_argument("--check", nargs="?", const=DEFAULT_IMAGE, default=None, metavar="IMAGE",
                    help="verify the result with LiteRT on IMAGE (default od_test_image.png)")
    ap.add_argument("--compare-anchors", action="store_true",
                    help="also compare the op's anchors with the classic MobileNet-SSD anchor generator")
    a = ap.parse_args()

    model, _, labels = read_source(a.source)
    if a.compare_anchors:
        compare_anchors(model)
    anchors, opts, num_classes = derive_graph(model)
    data = pack(model)
    if not a.no_metadata:
        if not labels or len(labels) != num_classes:
            raise SystemExit(f"the source's label file has {len(labels or [])} lines, expected {num_classes}")
        data = add_metadata(data, anchors, opts, num_classes, labels)
    with open(a.out, "wb") as f:
        f.write(data)

    S = schema()
    m = S.Model.GetRootAsModel(data, 0)
    sg = m.Subgraphs(0)
    print(f"wrote {a.out}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    print(f"  metadata: {'none' if a.no_metadata else 'TFLITE_METADATA + labels.txt'}; "
          f"{sg.OperatorsLength()} operators, {sg.TensorsLength()} tensors, {m.BuffersLength()} buffers")
    for j in range(sg.OutputsLength()):
        t = sg.Tensors(sg.Outputs(j))
        print(f"  output {j}: {t.Name().decode()} {[int(d) for d in t.ShapeAsNumpy()]} float32")
    print(f"  decoding: scales y {opts['y_scale']} x {opts['x_scale']} h {opts['h_scale']} w {opts['w_scale']}, "
          f"{num_classes} classes, {anchors.shape[0]} anchors")
    if a.check:
        check(a.source, data, a.check, anchors, opts)


if __name__ == "__main__":
    main()
