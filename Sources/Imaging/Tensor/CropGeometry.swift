import Foundation

/// Where a tensor came from: the crop rectangle, the letterbox padding and the matrix that
/// maps tensor coordinates back to the image. Returned by every ``ImageToTensor`` conversion
/// so that callers can project model outputs back (PIPELINES.md §1.3 items 7-8, §1.4, §1.5).
///
/// All image coordinates refer to the image as it was sampled: the upright image when an
/// orientation was applied.
package struct CropGeometry: Sendable, Equatable {
    /// Width of the sampled image in pixels.
    package let imageWidth: Int
    /// Height of the sampled image in pixels.
    package let imageHeight: Int
    /// Tensor width.
    package let tensorWidth: Int
    /// Tensor height.
    package let tensorHeight: Int
    /// The crop in image pixels, after letterbox growth.
    package let region: RotatedPixelRect
    /// Letterbox padding as fractions of the tensor size: (left, top, right, bottom). All zero
    /// without `keepAspectRatio`.
    package let letterboxPadding: SIMD4<Float>

    /// MediaPipe's MATRIX output: a row-major 4×4 matrix mapping tensor-normalized (u, v) in
    /// [0, 1] (letterbox included) to image-normalized coordinates; the z row scales z by
    /// crop width / image width.
    ///
    /// Computed in float exactly as MP:mediapipe/calculators/tensor/image_to_tensor_utils.cc
    /// `GetRotatedSubRectToRectTransformMatrix` (no horizontal flip).
    package var matrix: SIMD16<Float> {
        let a = region.width
        let b = region.height
        let c = CorrectlyRounded.cos(region.rotation)
        let d = CorrectlyRounded.sin(region.rotation)
        let e = region.centerX
        let f = region.centerY
        let g = 1 / Float(imageWidth)
        let h = 1 / Float(imageHeight)
        var m = SIMD16<Float>(repeating: 0)
        m[0] = a * c * g
        m[1] = -b * d * g
        m[3] = (-0.5 * a * c + 0.5 * b * d + e) * g
        m[4] = a * d * h
        m[5] = b * c * h
        m[7] = (-0.5 * b * c - 0.5 * a * d + f) * h
        m[10] = a * g
        m[15] = 1
        return m
    }

    /// Maps a tensor-normalized point (u = column / width, v = row / height, letterbox
    /// included) to image-normalized coordinates through ``matrix`` (what MediaPipe's
    /// DetectionProjectionCalculator does to keypoints and box corners).
    package func imagePoint(fromTensor u: Float, _ v: Float) -> (x: Float, y: Float) {
        let m = matrix
        return (m[0] * u + m[1] * v + m[3], m[4] * u + m[5] * v + m[7])
    }

    /// Removes the letterbox from a tensor-normalized point: x' = (x − left) / (1 − left −
    /// right), y' = (y − top) / (1 − top − bottom)
    /// (MP:mediapipe/calculators/util/detection_letterbox_removal_calculator.cc).
    package func removingLetterbox(_ x: Float, _ y: Float) -> (x: Float, y: Float) {
        let scale = letterboxScale
        return ((x - letterboxPadding[0]) / scale.x, (y - letterboxPadding[1]) / scale.y)
    }

    /// The denominators of the letterbox removal: (1 − left − right, 1 − top − bottom). Box
    /// widths and heights are divided by them, landmark z by the first.
    package var letterboxScale: (x: Float, y: Float) {
        (1 - letterboxPadding[0] - letterboxPadding[2], 1 - letterboxPadding[1] - letterboxPadding[3])
    }

    /// Computes the crop of `rect` in an image of `imageWidth` × `imageHeight` for a tensor of
    /// `options.width` × `options.height`.
    ///
    /// Follows MP: image_to_tensor_utils.cc `GetRoi`, `PadRoi` and `ValidateRoi`, in float:
    /// with keep-aspect-ratio the crop grows along one axis to the tensor's aspect ratio and
    /// the padding is reported as fractions of the tensor size.
    ///
    /// - Throws: ``ImageError/invalidRegion(_:)`` for NaN values, a non-positive crop size or
    ///   the all-zero sentinel rectangle; ``ImageError/invalidTensor(_:)`` for a non-positive
    ///   tensor size.
    package init(imageWidth: Int, imageHeight: Int, rect: NormalizedRect, options: TensorConversionOptions) throws {
        guard options.width > 0, options.height > 0 else {
            throw ImageError.invalidTensor("tensor size \(options.width)x\(options.height) must be positive")
        }
        guard imageWidth > 0, imageHeight > 0 else {
            throw ImageError.invalidDimensions(width: imageWidth, height: imageHeight)
        }
        guard !rect.isZeroSizeSentinel else {
            throw ImageError.invalidRegion("the all-zero sentinel rectangle produces no tensor")
        }
        var roi = RotatedPixelRect(rect, imageWidth: imageWidth, imageHeight: imageHeight)
        var padding = SIMD4<Float>(repeating: 0)
        if options.keepAspectRatio {
            guard roi.width > 0, roi.height > 0 else {
                throw ImageError.invalidRegion("ROI width and height must be > 0")
            }
            let tensorAspect = Float(options.height) / Float(options.width)
            let roiAspect = roi.height / roi.width
            if tensorAspect > roiAspect {
                roi.height = roi.width * tensorAspect
                padding[1] = (1 - roiAspect / tensorAspect) / 2
                padding[3] = padding[1]
            } else {
                roi.width = roi.height / tensorAspect
                padding[0] = (1 - tensorAspect / roiAspect) / 2
                padding[2] = padding[0]
            }
        }
        guard !roi.centerX.isNaN, !roi.centerY.isNaN, !roi.width.isNaN, !roi.height.isNaN,
              !roi.rotation.isNaN
        else {
            throw ImageError.invalidRegion("ROI contains NaN values")
        }
        guard roi.width > 0, roi.height > 0 else {
            throw ImageError.invalidRegion("ROI width and height must be > 0")
        }
        guard roi.centerX.isFinite, roi.centerY.isFinite, roi.width.isFinite, roi.height.isFinite,
              roi.rotation.isFinite
        else {
            throw ImageError.invalidRegion("ROI contains infinite values")
        }
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        tensorWidth = options.width
        tensorHeight = options.height
        region = roi
        letterboxPadding = padding
    }
}
