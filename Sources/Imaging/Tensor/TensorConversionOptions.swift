/// How pixels outside the image are filled when a crop reaches beyond it.
package enum BorderMode: Sendable, Equatable {
    /// Zero in every channel (MediaPipe `BORDER_ZERO`, OpenCV `BORDER_CONSTANT` with 0); used
    /// by the detectors.
    case zero
    /// The nearest edge pixel (MediaPipe's default, OpenCV `BORDER_REPLICATE`); used by the
    /// landmark models and the object detector.
    case replicate
}

/// What an image-to-tensor conversion produces: MediaPipe's `ImageToTensorCalculatorOptions`
/// as the task graphs set them (MP:mediapipe/calculators/tensor/image_to_tensor_calculator.proto).
package struct TensorConversionOptions: Sendable, Equatable {
    /// Tensor width (the model input width).
    package var width: Int
    /// Tensor height (the model input height).
    package var height: Int
    /// Whether the crop keeps its aspect ratio by growing to the tensor's (letterbox).
    package var keepAspectRatio: Bool
    /// How pixels outside the image are filled.
    package var borderMode: BorderMode
    /// The float range of the pixel values (ignored for UInt8 output).
    package var valueRange: ValueRange

    /// Creates options.
    package init(
        width: Int, height: Int, keepAspectRatio: Bool = false, borderMode: BorderMode = .replicate,
        valueRange: ValueRange = .zeroToOne
    ) {
        self.width = width
        self.height = height
        self.keepAspectRatio = keepAspectRatio
        self.borderMode = borderMode
        self.valueRange = valueRange
    }

    /// The number of tensor elements (height × width × 3).
    package var elementCount: Int { width * height * 3 }
}
