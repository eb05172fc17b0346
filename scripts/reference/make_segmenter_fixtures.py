#!/usr/bin/env python3
"""Writes the multi-channel segmenter fixtures of the ImageSegmenter tests
(Tests/VisionTasksTests/Fixtures/Segmenter): tiny segmentation models with MediaPipe's metadata,
small test pictures, and MediaPipe 1.2.3's own results on them.

The official selfie segmenter has one channel and no activation; these models cover what it
does not: several channels, SOFTMAX and SIGMOID activations from SEGMENTER_METADATA, label files,
and masks resized up and down to pictures of other sizes.

Each model is one 1x1 CONV_2D from a 16x16 RGB input in [0, 1] to C logits, written with the
TFLite schema's object API (ai-edge-litert's schema_py_generated), with TFLite metadata (input
NormalizationOptions mean 0, std 255; the mask tensor's labels.txt as TENSOR_AXIS_LABELS; the
SEGMENTER_METADATA custom metadata holding the activation, mediapipe/tasks/metadata/
image_segmenter_metadata_schema.fbs) and labels.txt appended as a zip, as MediaPipe's metadata
populator does. The pictures are smooth synthetic gradients generated here (no shared image is
copied). MediaPipe's ImageSegmenter (IMAGE mode, both masks) runs on each model and picture; its
confidence masks (float32) and category mask (uint8) are stored base64 in results.json.

Usage: ~/.cache/mediapipe-oracle-venv/bin/python scripts/reference/make_segmenter_fixtures.py
"""
import base64
import importlib.util
import json
import os
import zipfile

import cv2
import flatbuffers
import mediapipe as mp
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from mediapipe.tasks.python import BaseOptions, vision

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "Tests", "VisionTasksTests", "Fixtures", "Segmenter")
METADATA_DIR = os.path.join(os.path.dirname(mp.__file__), "tasks", "metadata")


def load_generated(name):
    """A flatbuffers module generated from one of MediaPipe's metadata schemas, loaded by path:
    importing it through its package pulls in a metadata module this wheel cannot load."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(METADATA_DIR, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


meta = load_generated("metadata_schema_py_generated")
segmenter_meta = load_generated("image_segmenter_metadata_schema_py_generated")

SIZE = 16
# name, activation (NONE 0, SIGMOID 1, SOFTMAX 2), labels, 1x1 weights [C][3], biases [C]
MODELS = [
    ("softmax3", 2, ["background", "warm", "cool"],
     [[-1.0, -1.0, -1.0], [4.0, -1.0, -2.0], [-2.0, 0.5, 4.0]], [1.2, -0.3, -0.6]),
    ("sigmoid2", 1, ["bright", "green"],
     [[3.0, 3.0, 3.0], [-2.0, 5.0, -2.0]], [-4.5, -0.2]),
]
# name, width, height: one picture larger than the model input, one smaller and not square.
PICTURES = [("gradient", 37, 29), ("small", 11, 13)]


def picture(width, height, seed):
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    r = 127.5 + 127.5 * np.sin(x / width * 5.0 + seed)
    g = 127.5 + 127.5 * np.cos(y / height * 4.0 - seed)
    b = 255.0 * (x + y) / (width + height)
    return np.clip(np.stack([r, g, b], axis=-1).round(), 0, 255).astype(np.uint8)


def metadata_bytes(activation, channels):
    segmenter = segmenter_meta.ImageSegmenterOptionsT()
    segmenter.activation = activation
    builder = flatbuffers.Builder(64)
    builder.Finish(segmenter.Pack(builder), file_identifier=b"V001")
    custom = meta.CustomMetadataT()
    custom.name = "SEGMENTER_METADATA"
    custom.data = list(bytes(builder.Output()))

    normalization = meta.NormalizationOptionsT()
    normalization.mean = [0.0]
    normalization.std = [255.0]
    unit = meta.ProcessUnitT()
    unit.optionsType = meta.ProcessUnitOptions.NormalizationOptions
    unit.options = normalization
    image = meta.ImagePropertiesT()
    image.colorSpace = meta.ColorSpaceType.RGB
    content = meta.ContentT()
    content.contentPropertiesType = meta.ContentProperties.ImageProperties
    content.contentProperties = image
    inputs = meta.TensorMetadataT()
    inputs.name = "image"
    inputs.content = content
    inputs.processUnits = [unit]

    labels = meta.AssociatedFileT()
    labels.name = "labels.txt"
    labels.description = "one label per channel"
    labels.type = meta.AssociatedFileType.TENSOR_AXIS_LABELS
    outputs = meta.TensorMetadataT()
    outputs.name = "segmentation_masks"
    outputs.associatedFiles = [labels]

    subgraph = meta.SubGraphMetadataT()
    subgraph.inputTensorMetadata = [inputs]
    subgraph.outputTensorMetadata = [outputs]
    subgraph.customMetadata = [custom]
    model = meta.ModelMetadataT()
    model.name = "VisionTasks test segmenter"
    model.description = f"1x1 convolution to {channels} channels (scripts/reference/make_segmenter_fixtures.py)"
    model.subgraphMetadata = [subgraph]
    model.minParserVersion = "1.0.0"
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"M001")
    return bytes(builder.Output())


def tensor(name, shape, buffer):
    t = schema.TensorT()
    t.name = name
    t.shape = shape
    t.type = schema.TensorType.FLOAT32
    t.buffer = buffer
    return t


def buffer(data=None):
    b = schema.BufferT()
    if data is not None:
        b.data = list(data)
    return b


def model_bytes(activation, labels, weights, biases):
    channels = len(labels)
    conv = schema.OperatorCodeT()
    conv.builtinCode = schema.BuiltinOperator.CONV_2D
    conv.deprecatedBuiltinCode = schema.BuiltinOperator.CONV_2D
    conv.version = 1
    options = schema.Conv2DOptionsT()
    options.padding = schema.Padding.VALID
    options.strideW = options.strideH = 1
    options.dilationWFactor = options.dilationHFactor = 1
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs = [0, 1, 2]
    op.outputs = [3]
    op.builtinOptionsType = schema.BuiltinOptions.Conv2DOptions
    op.builtinOptions = options
    graph = schema.SubGraphT()
    graph.tensors = [
        tensor("image", [1, SIZE, SIZE, 3], 1),
        tensor("weights", [channels, 1, 1, 3], 2),
        tensor("bias", [channels], 3),
        tensor("segmentation_masks", [1, SIZE, SIZE, channels], 4),
    ]
    graph.inputs = [0]
    graph.outputs = [3]
    graph.operators = [op]
    graph.name = "main"
    model = schema.ModelT()
    model.version = 3
    model.description = "VisionTasks test segmenter"
    model.operatorCodes = [conv]
    model.subgraphs = [graph]
    model.buffers = [
        buffer(), buffer(), buffer(np.asarray(weights, np.float32).reshape(channels, 1, 1, 3).tobytes()),
        buffer(np.asarray(biases, np.float32).tobytes()), buffer(), buffer(metadata_bytes(activation, channels)),
    ]
    entry = schema.MetadataT()
    entry.name = "TFLITE_METADATA"
    entry.buffer = 5
    model.metadata = [entry]
    builder = flatbuffers.Builder(4096)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def b64(array):
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def main():
    os.makedirs(OUT, exist_ok=True)
    pictures = {}
    for index, (name, width, height) in enumerate(PICTURES):
        pixels = picture(width, height, seed=index + 1)
        cv2.imwrite(os.path.join(OUT, name + ".png"), cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR))
        pictures[name] = pixels
    results = {"reference": f"mediapipe {mp.__version__} ImageSegmenter, IMAGE mode, both masks",
               "models": {}}
    for name, activation, labels, weights, biases in MODELS:
        path = os.path.join(OUT, name + ".tflite")
        with open(path, "wb") as f:
            f.write(model_bytes(activation, labels, weights, biases))
        # Associated files travel as a zip appended to the model (MediaPipe's metadata populator).
        with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_STORED) as archive:
            info = zipfile.ZipInfo("labels.txt", date_time=(1980, 1, 1, 0, 0, 0))
            archive.writestr(info, "\n".join(labels) + "\n")
        options = vision.ImageSegmenterOptions(
            base_options=BaseOptions(model_asset_path=path), running_mode=vision.RunningMode.IMAGE,
            output_confidence_masks=True, output_category_mask=True)
        entries = {}
        with vision.ImageSegmenter.create_from_options(options) as segmenter:
            for picture_name, pixels in pictures.items():
                image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(pixels))
                result = segmenter.segment(image)
                masks = [m.numpy_view().astype(np.float32).reshape(pixels.shape[:2]) for m in result.confidence_masks]
                category = result.category_mask.numpy_view().astype(np.uint8).reshape(pixels.shape[:2])
                entries[picture_name] = {
                    "width": int(pixels.shape[1]), "height": int(pixels.shape[0]),
                    "labels": segmenter.labels,
                    "confidenceMasks": [b64(m) for m in masks],
                    "categoryMask": b64(category),
                }
                print(f"{name} on {picture_name}: {len(masks)} masks, categories {np.unique(category).tolist()}")
        results["models"][name] = {"file": name + ".tflite", "activation": activation, "labels": labels,
                                   "results": entries}
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
