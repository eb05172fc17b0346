"""Builds a tiny TFLite "identity" model whose output is its own input tensor.

Run through MediaPipe's ImageEmbedder (l2_normalize and quantize off), such a model returns the
exact tensor MediaPipe's CPU preprocessing (ImageToTensorCalculator) produced. With
NormalizationOptions mean 0, std 1 the float range is [0, 255], so the values are the 8-bit
results of MediaPipe's warp. image_tensors.py uses it to check its OpenCV replica against the
real MediaPipe for every case the embedder can express (stretch, replicate border, axis-aligned
region, quarter-turn rotation).

The model: input 1xHxWx3 float32 "image" -> RESHAPE -> 1x(H*W*3) float32 "embedding", with
TFLITE_METADATA (image input with NormalizationOptions, feature output). Built with the
flatbuffers object API of the schemas shipped in the mediapipe wheel.
"""
import flatbuffers
import numpy as np
from mediapipe.tasks.metadata import metadata_schema_py_generated as meta
from mediapipe.tasks.metadata import schema_py_generated as tfl


def _metadata(mean, std):
    image = meta.TensorMetadataT()
    image.name = "image"
    image.content = meta.ContentT()
    image.content.contentPropertiesType = meta.ContentProperties.ImageProperties
    properties = meta.ImagePropertiesT()
    properties.colorSpace = meta.ColorSpaceType.RGB
    image.content.contentProperties = properties
    unit = meta.ProcessUnitT()
    unit.optionsType = meta.ProcessUnitOptions.NormalizationOptions
    normalization = meta.NormalizationOptionsT()
    normalization.mean = [mean]
    normalization.std = [std]
    unit.options = normalization
    image.processUnits = [unit]

    embedding = meta.TensorMetadataT()
    embedding.name = "embedding"
    embedding.content = meta.ContentT()
    embedding.content.contentPropertiesType = meta.ContentProperties.FeatureProperties
    embedding.content.contentProperties = meta.FeaturePropertiesT()

    subgraph = meta.SubGraphMetadataT()
    subgraph.inputTensorMetadata = [image]
    subgraph.outputTensorMetadata = [embedding]
    model = meta.ModelMetadataT()
    model.name = "identity"
    model.minParserVersion = "1.0.0"
    model.subgraphMetadata = [subgraph]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"M001")
    return bytes(builder.Output())


def identity_model(height, width, mean=0.0, std=1.0):
    """Returns the bytes of the identity model for a height x width x 3 input."""
    count = height * width * 3

    def buffer(data=None):
        result = tfl.BufferT()
        result.data = data
        return result

    def tensor(name, shape, kind, index):
        result = tfl.TensorT()
        result.name = name
        result.shape = shape
        result.type = kind
        result.buffer = index
        return result

    code = tfl.OperatorCodeT()
    code.builtinCode = tfl.BuiltinOperator.RESHAPE
    code.deprecatedBuiltinCode = tfl.BuiltinOperator.RESHAPE
    code.version = 1

    reshape = tfl.OperatorT()
    reshape.opcodeIndex = 0
    reshape.inputs = [0, 1]
    reshape.outputs = [2]
    reshape.builtinOptionsType = tfl.BuiltinOptions.ReshapeOptions
    options = tfl.ReshapeOptionsT()
    options.newShape = [1, count]
    reshape.builtinOptions = options

    subgraph = tfl.SubGraphT()
    subgraph.name = b"main"
    subgraph.tensors = [
        tensor(b"image", [1, height, width, 3], tfl.TensorType.FLOAT32, 2),
        tensor(b"shape", [2], tfl.TensorType.INT32, 1),
        tensor(b"embedding", [1, count], tfl.TensorType.FLOAT32, 3),
    ]
    subgraph.inputs = [0]
    subgraph.outputs = [2]
    subgraph.operators = [reshape]

    model = tfl.ModelT()
    model.version = 3
    model.description = b"identity"
    model.operatorCodes = [code]
    model.subgraphs = [subgraph]
    model.buffers = [
        buffer(),
        buffer(list(np.array([1, count], np.int32).tobytes())),
        buffer(),
        buffer(),
        buffer(list(_metadata(mean, std))),
    ]
    entry = tfl.MetadataT()
    entry.name = b"TFLITE_METADATA"
    entry.buffer = 4
    model.metadata = [entry]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def mediapipe_tensor(model_path, rgb, height, width, region=None, rotation_degrees=0):
    """The tensor MediaPipe's own preprocessing makes of `rgb` (HxWx3 uint8), as uint8 values.

    `region` is (left, top, right, bottom) in [0, 1] or None for the whole image.
    """
    import mediapipe as mp
    from mediapipe.tasks.python import vision
    from mediapipe.tasks.python.components.containers import rect as rect_module
    from mediapipe.tasks.python.core import base_options
    from mediapipe.tasks.python.vision.core import image_processing_options

    options = vision.ImageEmbedderOptions(
        base_options=base_options.BaseOptions(model_asset_path=model_path),
        l2_normalize=False, quantize=False)
    roi = None
    if region is not None:
        left, top, right, bottom = region
        # RectF's positional order is (left, top, bottom, right): use keywords.
        roi = rect_module.RectF(left=left, top=top, right=right, bottom=bottom)
    with vision.ImageEmbedder.create_from_options(options) as embedder:
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))
        processing = image_processing_options.ImageProcessingOptions(
            region_of_interest=roi, rotation_degrees=rotation_degrees)
        result = embedder.embed(image, image_processing_options=processing)
        values = np.array(result.embeddings[0].embedding, dtype=np.float32).reshape(height, width, 3)
    rounded = np.rint(values)
    assert np.all(rounded == values) and values.min() >= 0 and values.max() <= 255, "not 8-bit values"
    return rounded.astype(np.uint8)
