/// How a task receives its input, which decides the method that must be called for each frame.
///
/// Mirrors MediaPipe's `MPPRunningMode` (mediapipe/tasks/ios/vision/core/sources/MPPRunningMode.h),
/// with the same raw values.
public enum RunningMode: Int, Sendable, CaseIterable {
    /// Single, unrelated images: call `detect(image:)`.
    case image = 0
    /// Frames of a decoded video with increasing timestamps: call
    /// `detect(videoFrame:timestampInMilliseconds:)`. Landmarkers track between frames.
    case video = 1
    /// A live camera feed: call `detectAsync(image:timestampInMilliseconds:)`; results arrive
    /// through the task's live-stream delegate.
    case liveStream = 2

    /// The name MediaPipe uses in error messages ("Image", "Video", "Live Stream").
    var displayName: String {
        switch self {
        case .image: return "Image"
        case .video: return "Video"
        case .liveStream: return "Live Stream"
        }
    }

    /// The lowercase name MediaPipe uses inside sentences ("image", "video", "live stream").
    var sentenceName: String {
        switch self {
        case .image: return "image"
        case .video: return "video"
        case .liveStream: return "live stream"
        }
    }
}
