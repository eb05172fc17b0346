/// The range the 0...255 pixel values are mapped to in a float tensor.
///
/// Each value becomes `value · scale + offset` with `scale = (max − min) / 255` and
/// `offset = min` (MP:mediapipe/calculators/tensor/image_to_tensor_utils.cc,
/// `GetValueRangeTransformation`).
package struct ValueRange: Sendable, Equatable {
    /// The value a 0 pixel becomes.
    package let min: Float
    /// The value a 255 pixel becomes.
    package let max: Float

    /// [0, 1] (mean 0, std 255).
    package static let zeroToOne = ValueRange(unchecked: 0, 1)
    /// [−1, 1] (mean 127.5, std 127.5).
    package static let minusOneToOne = ValueRange(unchecked: -1, 1)
    /// [0, 255]: the pixel values unchanged (uint8 models).
    package static let bytes = ValueRange(unchecked: 0, 255)

    /// A range from `min` to `max`.
    ///
    /// - Throws: ``ImageError/invalidNormalization(_:)`` unless `min < max` and both are finite.
    package init(min: Float, max: Float) throws {
        guard min.isFinite, max.isFinite, min < max else {
            throw ImageError.invalidNormalization("value range [\(min), \(max)] is empty or not finite")
        }
        self.min = min
        self.max = max
    }

    /// The range a model's `NormalizationOptions` (mean and std per channel) produce:
    /// min = (0 − mean) / std, max = (255 − mean) / std.
    ///
    /// Follows MP:mediapipe/tasks/cc/components/processors/image_preprocessing_graph.cc
    /// (`ConfigureImageToTensorCalculator`): one value applies to every channel, per-channel
    /// values must all be equal, and std must not be 0.
    ///
    /// - Throws: ``ImageError/invalidNormalization(_:)`` for empty or mismatched lists,
    ///   differing per-channel values, a zero std or a non-finite result.
    package init(normalizationMean mean: [Float], std: [Float]) throws {
        guard let firstMean = mean.first, let firstStd = std.first, mean.count == std.count else {
            throw ImageError.invalidNormalization(
                "mean and std must be non-empty lists of the same length (got \(mean.count) and \(std.count))")
        }
        for index in 1..<mean.count where mean[index] != firstMean || std[index] != firstStd {
            throw ImageError.invalidNormalization("per-channel image normalization is not available")
        }
        guard abs(firstStd) >= Float.ulpOfOne else {
            throw ImageError.invalidNormalization("std can't be 0")
        }
        try self.init(min: (0 - firstMean) / firstStd, max: (255 - firstMean) / firstStd)
    }

    private init(unchecked min: Float, _ max: Float) {
        self.min = min
        self.max = max
    }

    /// The factor applied to pixel values.
    package var scale: Float { (max - min) / 255 }

    /// The value added after scaling.
    package var offset: Float { min }
}
