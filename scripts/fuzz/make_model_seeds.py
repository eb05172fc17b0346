"""Writes the model fuzzers' seed corpus (Fuzz/Corpus/tflite, model, metadata): tiny TFLite
flatbuffers built field by field from the public schemas (tensorflow/lite/schema/schema.fbs and
tensorflow_lite_support/metadata/metadata_schema.fbs), a model with metadata and an appended
label zip, and `.task` bundles. Nothing is copied from real model files. Needs the `flatbuffers`
Python package (present in ~/.cache/mediapipe-oracle-venv):
    ~/.cache/mediapipe-oracle-venv/bin/python scripts/fuzz/make_model_seeds.py
"""
import io
import os
import struct
import zipfile

import flatbuffers
from flatbuffers import flexbuffers

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Fuzz", "Corpus")


def strings(builder, values):
    return [builder.CreateString(value) for value in values]


def offsets_vector(builder, offsets):
    builder.StartVector(4, len(offsets), 4)
    for offset in reversed(offsets):
        builder.PrependUOffsetTRelative(offset)
    return builder.EndVector()


def int_vector(builder, values, size=4, prepend=None):
    builder.StartVector(size, len(values), size)
    for value in reversed(values):
        (prepend or builder.PrependInt32)(value)
    return builder.EndVector()


def float_vector(builder, values):
    builder.StartVector(4, len(values), 4)
    for value in reversed(values):
        builder.PrependFloat32(value)
    return builder.EndVector()


def table(builder, field_count, slots):
    """A table whose fields are all offsets: `slots` are (field index, offset) pairs, prepended
    in the order given."""
    builder.StartObject(field_count)
    for index, offset in slots:
        builder.PrependUOffsetTRelativeSlot(index, offset, 0)
    return builder.EndObject()


def metadata_flatbuffer():
    """A ModelMetadata ("M001") with one input (normalization, image properties) and one output
    tensor that names a label file."""
    b = flatbuffers.Builder(256)
    name, description, version = strings(b, ["tiny", "a fuzzing seed", "v1"])
    labels = b.CreateString("labels.txt")
    b.StartObject(5)  # AssociatedFile
    b.PrependUOffsetTRelativeSlot(0, labels, 0)
    b.PrependInt8Slot(2, 2, 0)  # TENSOR_AXIS_LABELS
    label_file = b.EndObject()
    mean, std = float_vector(b, [127.5]), float_vector(b, [127.5])
    normalization = table(b, 2, [(0, mean), (1, std)])  # NormalizationOptions
    b.StartObject(2)  # ProcessUnit
    b.PrependUint8Slot(0, 1, 0)  # NormalizationOptions
    b.PrependUOffsetTRelativeSlot(1, normalization, 0)
    unit = b.EndObject()
    units = offsets_vector(b, [unit])
    b.StartObject(2)  # ImageProperties
    b.PrependInt8Slot(0, 1, 0)  # RGB
    image_properties = b.EndObject()
    b.StartObject(3)  # Content
    b.PrependUint8Slot(0, 2, 0)  # ImageProperties
    b.PrependUOffsetTRelativeSlot(1, image_properties, 0)
    content = b.EndObject()
    stat_max, stat_min = float_vector(b, [255.0]), float_vector(b, [0.0])
    stats = table(b, 2, [(0, stat_max), (1, stat_min)])  # Stats
    input_name = b.CreateString("image")
    input_tensor = table(b, 7, [(0, input_name), (3, content), (4, units), (5, stats)])  # TensorMetadata
    output_name = b.CreateString("scores")
    files = offsets_vector(b, [label_file])
    output_tensor = table(b, 7, [(0, output_name), (6, files)])  # TensorMetadata
    inputs, outputs = offsets_vector(b, [input_tensor]), offsets_vector(b, [output_tensor])
    subgraph = table(b, 9, [(2, inputs), (3, outputs)])  # SubGraphMetadata
    subgraphs = offsets_vector(b, [subgraph])
    parser = b.CreateString("1.0.0")
    model_metadata = table(b, 8, [(0, name), (1, description), (2, version), (3, subgraphs), (7, parser)])
    b.Finish(model_metadata, file_identifier=b"M001")
    return bytes(b.Output())


def tflite(metadata=None, custom=False, quantized=False):
    """A model of one ADD (or CONV_2D, or a custom operator with flexbuffer options) on a
    1x2x2x1 input and a constant."""
    b = flatbuffers.Builder(512)
    buffer_data = [b"", b"", struct.pack("<4f", 1, 2, 3, 4)]
    if metadata is not None:
        buffer_data.append(metadata)
    buffers = []
    for data in buffer_data:
        vector = b.CreateByteVector(data) if data else None
        b.StartObject(3)
        if vector is not None:
            b.PrependUOffsetTRelativeSlot(0, vector, 0)
        buffers.append(b.EndObject())
    tensors = []
    for index, tensor_name in enumerate(["input", "output", "constant"]):
        name = b.CreateString(tensor_name)
        shape = int_vector(b, [1, 2, 2, 1])
        quantization = None
        if quantized:
            scale = float_vector(b, [0.5])
            zero = int_vector(b, [3], size=8, prepend=b.PrependInt64)
            quantization = table(b, 7, [(2, scale), (3, zero)])
        b.StartObject(8)
        b.PrependUOffsetTRelativeSlot(0, shape, 0)
        b.PrependInt8Slot(1, 9 if quantized else 0, 0)  # INT8 or FLOAT32
        b.PrependUint32Slot(2, 2 if index == 2 else 0, 0)
        b.PrependUOffsetTRelativeSlot(3, name, 0)
        if quantization is not None:
            b.PrependUOffsetTRelativeSlot(4, quantization, 0)
        tensors.append(b.EndObject())
    custom_code = b.CreateString("FuzzSeedOp") if custom else None
    b.StartObject(4)  # OperatorCode
    if custom_code is not None:
        b.PrependUOffsetTRelativeSlot(1, custom_code, 0)
    b.PrependInt32Slot(2, 1, 1)
    b.PrependInt8Slot(0, 32 if custom else 0, 0)
    b.PrependInt32Slot(3, 32 if custom else 0, 0)  # CUSTOM or ADD
    opcode = b.EndObject()
    options = None
    custom_options = None
    if custom:
        custom_options = b.CreateByteVector(bytes(flexbuffers.Dumps({"scale": 0.25, "num": 3, "flag": True,
                                                                       "values": [1, 2, 3], "name": "seed"})))
    else:
        b.StartObject(2)  # AddOptions
        b.PrependInt8Slot(0, 1, 0)  # RELU
        options = b.EndObject()
    op_inputs, op_outputs = int_vector(b, [0, 2]), int_vector(b, [1])
    b.StartObject(6)  # Operator
    b.PrependUint32Slot(0, 0, 0)
    b.PrependUOffsetTRelativeSlot(1, op_inputs, 0)
    b.PrependUOffsetTRelativeSlot(2, op_outputs, 0)
    if options is not None:
        b.PrependUint8Slot(3, 11, 0)  # AddOptions
        b.PrependUOffsetTRelativeSlot(4, options, 0)
    if custom_options is not None:
        b.PrependUOffsetTRelativeSlot(5, custom_options, 0)
    operator = b.EndObject()
    tensor_vector, operator_vector = offsets_vector(b, tensors), offsets_vector(b, [operator])
    inputs, outputs = int_vector(b, [0]), int_vector(b, [1])
    graph_name = b.CreateString("main")
    subgraph = table(b, 5, [(0, tensor_vector), (1, inputs), (2, outputs), (3, operator_vector), (4, graph_name)])  # SubGraph
    metadata_entries = []
    for entry_name, buffer in ([("TFLITE_METADATA", 3)] if metadata is not None else []) + [("min_runtime_version", 0)]:
        name = b.CreateString(entry_name)
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, name, 0)
        b.PrependUint32Slot(1, buffer, 0)
        metadata_entries.append(b.EndObject())
    opcodes, subgraphs = offsets_vector(b, [opcode]), offsets_vector(b, [subgraph])
    buffer_vector, metadata_vector = offsets_vector(b, buffers), offsets_vector(b, metadata_entries)
    description = b.CreateString("fuzz seed")
    b.StartObject(8)  # Model
    b.PrependUint32Slot(0, 3, 0)
    b.PrependUOffsetTRelativeSlot(1, opcodes, 0)
    b.PrependUOffsetTRelativeSlot(2, subgraphs, 0)
    b.PrependUOffsetTRelativeSlot(3, description, 0)
    b.PrependUOffsetTRelativeSlot(4, buffer_vector, 0)
    b.PrependUOffsetTRelativeSlot(6, metadata_vector, 0)
    b.Finish(b.EndObject(), file_identifier=b"TFL3")
    return bytes(b.Output())


def zipped(members, base=b""):
    stream = io.BytesIO()
    stream.write(base)
    with zipfile.ZipFile(stream, "a") as archive:
        for name, data, method in members:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return stream.getvalue()


def write(folder, name, data):
    os.makedirs(os.path.join(ROOT, folder), exist_ok=True)
    with open(os.path.join(ROOT, folder, name), "wb") as handle:
        handle.write(data)


def main():
    metadata = metadata_flatbuffer()
    plain = tflite()
    with_metadata = zipped([("labels.txt", b"background\nperson\n", zipfile.ZIP_STORED)],
                           base=tflite(metadata=metadata))
    write("tflite", "add.tflite", plain)
    write("tflite", "add_int8.tflite", tflite(quantized=True))
    write("tflite", "custom_flex.tflite", tflite(custom=True))
    write("tflite", "with_metadata_and_labels.tflite", with_metadata)
    write("metadata", "metadata.bin", metadata)
    write("metadata", "flex_map.bin", bytes(flexbuffers.Dumps({"a": 1, "b": [1.5, 2.5], "c": "text"})))
    write("metadata", "flex_vector.bin", bytes(flexbuffers.Dumps([1, -2, 3.0, "x", True, None])))
    write("model", "bundle.task", zipped([("detector.tflite", plain, zipfile.ZIP_STORED),
                                          ("landmarks.tflite", with_metadata, zipfile.ZIP_STORED)]))
    write("model", "bundle_deflated.task", zipped([("a.tflite", plain, zipfile.ZIP_DEFLATED),
                                                   ("b.tflite", plain, zipfile.ZIP_STORED)]))
    write("model", "single.tflite", with_metadata)


if __name__ == "__main__":
    main()
