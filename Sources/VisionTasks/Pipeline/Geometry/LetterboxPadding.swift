/// The letterbox padding of a tensor, as fractions of the tensor size
/// (MediaPipe's `LETTERBOX_PADDING`, [left, top, right, bottom];
/// mediapipe/calculators/tensor/image_to_tensor_utils.cc `PadRoi`).
package struct LetterboxPadding: Sendable, Hashable {
    package var left: Float
    package var top: Float
    package var right: Float
    package var bottom: Float

    package init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// No padding.
    package static let zero = LetterboxPadding(left: 0, top: 0, right: 0, bottom: 0)
}
