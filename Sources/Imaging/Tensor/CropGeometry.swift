import Foundation

/// Where a tensor came from: the crop rectangle, the letterbox padding and the matrix that
/// maps tensor coordinates back to the image. Returned by every ``ImageToTensor`` conversion
/// so that callers can project model outputs back (../shared/spec/PIPELINES.md §1.3 items 7-8, §1.4, §1.5).
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
    /// Letterbox padding as fractions of the tensor size; ``LetterboxPadding/zero`` without
    /// `keepAspectRatio`.
    package let letterboxPadding: LetterboxPadding

    /// MediaPipe's MATRIX output for this crop (tensor-normalized → image-normalized).
    package var matrix: CropMatrix {
        CropMatrix(region: region, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// Maps a tensor-normalized point (u = column / width, v = row / height, letterbox
    /// included) to image-normalized coordinates through ``matrix``.
    package func imagePoint(fromTensor u: Float, _ v: Float) -> (x: Float, y: Float) {
        matrix.apply(x: u, y: v)
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
        var padding = LetterboxPadding.zero
        if options.keepAspectRatio {
            guard roi.width > 0, roi.height > 0 else {
                throw ImageError.invalidRegion("ROI width and height must be > 0")
            }
            let tensorAspect = Float(options.height) / Float(options.width)
            let roiAspect = roi.height / roi.width
            if tensorAspect > roiAspect {
                roi.height = roi.width * tensorAspect
                let vertical = (1 - roiAspect / tensorAspect) / 2
                padding = LetterboxPadding(left: 0, top: vertical, right: 0, bottom: vertical)
            } else {
                roi.width = roi.height / tensorAspect
                let horizontal = (1 - tensorAspect / roiAspect) / 2
                padding = LetterboxPadding(left: horizontal, top: 0, right: horizontal, bottom: 0)
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
