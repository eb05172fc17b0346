/// The categories one classification head gives, e.g. a face's 52 blendshape scores.
///
/// Mirrors MediaPipe's `MPPClassifications`
/// (mediapipe/tasks/ios/components/containers/sources/MPPClassificationResult.h).
public struct Classifications: Sendable, Hashable {
    /// The index of the model head that produced the categories (0 for a model with one head).
    public let headIndex: Int
    /// The head's name from the model metadata, if any. The face landmarker's blendshapes carry
    /// an empty name, as in MediaPipe.
    public let headName: String?
    /// The categories, in the head's output order.
    public let categories: [ResultCategory]

    /// Creates classifications of an unnamed head.
    public init(headIndex: Int, categories: [ResultCategory]) {
        self.init(headIndex: headIndex, headName: nil, categories: categories)
    }

    /// Creates classifications.
    public init(headIndex: Int, headName: String?, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }
}
