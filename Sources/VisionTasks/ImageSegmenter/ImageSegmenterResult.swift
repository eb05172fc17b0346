import Foundation

/// The masks of one image or frame (MediaPipe's `MPPImageSegmenterResult`).
///
/// Masks have the size of the image as stored (before its orientation is applied); MediaPipe
/// applies the orientation to the model's input but does not undo it on the masks, and neither
/// does this package.
public struct ImageSegmenterResult: TaskResult, Sendable {
    /// One float mask per model channel, each pixel the channel's confidence (after the
    /// activation the model's metadata names), or `nil` when confidence masks are off. A
    /// one-channel model such as the selfie segmenter gives one mask.
    public var confidenceMasks: [Mask]?
    /// The category of each pixel as a byte mask (the channel index with the highest value; for
    /// a one-channel model 0 where the confidence exceeds 0.5 and 255 elsewhere), or `nil` when
    /// the category mask is off.
    public var categoryMask: Mask?
    /// One quality score per channel: the model's own when it has a quality output, 1 otherwise.
    public var qualityScores: [NSNumber]?
    /// The frame's timestamp; 0, 1000, 2000, … in image mode.
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        confidenceMasks: [Mask]?, categoryMask: Mask?, qualityScores: [NSNumber]?, timestampInMilliseconds: Int
    ) {
        self.confidenceMasks = confidenceMasks
        self.categoryMask = categoryMask
        self.qualityScores = qualityScores
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
