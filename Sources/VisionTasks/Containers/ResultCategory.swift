/// One class of a classification or detection result.
///
/// Mirrors MediaPipe's `MPPCategory`
/// (mediapipe/tasks/ios/components/containers/sources/MPPCategory.h), which Swift sees as
/// `ResultCategory`.
public struct ResultCategory: Sendable, Hashable {
    /// The class index in the model's output, or -1 when it is not known (ObjectDetector
    /// reports -1 whenever the model has labels, as MediaPipe does).
    public var index: Int
    /// The score, usually a probability in 0…1.
    public var score: Float
    /// The label from the model metadata, if any.
    public var categoryName: String?
    /// The display name for the requested locale, if any.
    public var displayName: String?

    /// Creates a category.
    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}
