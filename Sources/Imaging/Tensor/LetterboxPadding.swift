/// The letterbox padding of a tensor, as fractions of the tensor size: MediaPipe's
/// `LETTERBOX_PADDING` [left, top, right, bottom]
/// (MP:mediapipe/calculators/tensor/image_to_tensor_utils.cc `PadRoi`).
///
/// The one owner of letterbox removal: landmarks, detection boxes and keypoints of a
/// letterboxed tensor go back to the crop through ``removing(x:y:)`` and ``scale``.
package struct LetterboxPadding: Sendable, Hashable {
    /// Padding on the left, as a fraction of the tensor width.
    package var left: Float
    /// Padding on the top, as a fraction of the tensor height.
    package var top: Float
    /// Padding on the right, as a fraction of the tensor width.
    package var right: Float
    /// Padding on the bottom, as a fraction of the tensor height.
    package var bottom: Float

    /// Creates a padding.
    package init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// No padding (a stretched crop).
    package static let zero = LetterboxPadding(left: 0, top: 0, right: 0, bottom: 0)

    /// The denominators of the removal, `1 − (left + right)` and `1 − (top + bottom)`, in
    /// MediaPipe's float order. Widths, heights and landmark z are divided by them.
    package var scale: (x: Float, y: Float) {
        (1 - (left + right), 1 - (top + bottom))
    }

    /// A tensor-normalized point without the letterbox: x' = (x − left) / (1 − (left + right)),
    /// y' = (y − top) / (1 − (top + bottom))
    /// (MP:mediapipe/calculators/util/landmark_letterbox_removal_calculator.cc,
    /// detection_letterbox_removal_calculator.cc).
    package func removing(x: Float, y: Float) -> (x: Float, y: Float) {
        let scale = scale
        return ((x - left) / scale.x, (y - top) / scale.y)
    }
}
