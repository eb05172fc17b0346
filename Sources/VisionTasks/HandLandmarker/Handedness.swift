/// The hand landmark model's handedness output as a category
/// (mediapipe/calculators/tensor/tensors_to_classification_calculator.cc, ../shared/spec/PIPELINES.md §3.4).
///
/// The single value s is a binary classification used as is: class 0 "Right" with score s,
/// class 1 "Left" with score 1 − s; the top one is kept (on a tie, "Right", as the partial
/// sort keeps the first). This is MediaPipe 1.2.3's naming (oracle README item 3); older
/// SDKs named the same index the other way round.
enum Handedness {
    static let labels = ["Right", "Left"]

    static func category(score: Float) -> ResultCategory {
        let left = 1 - score
        let index = left > score ? 1 : 0
        let value = index == 0 ? score : left
        return ResultCategory(index: index, score: value, categoryName: labels[index], displayName: labels[index])
    }
}
