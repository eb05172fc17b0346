/// Receives an ``ImageSegmenter``'s live-stream results, in frame order, on the segmenter's
/// serial callback queue (MediaPipe's `MPPImageSegmenterLiveStreamDelegate`,
/// mediapipe/tasks/ios/vision/image_segmenter/sources/MPPImageSegmenter.h).
public protocol ImageSegmenterLiveStreamDelegate: AnyObject {
    /// Called once per processed frame with its result, or with the error that frame raised
    /// (then `result` is `nil`). Frames the flow limiter dropped get no call. Unlike MediaPipe's,
    /// the masks stay valid after the call returns.
    func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

extension ImageSegmenterLiveStreamDelegate {
    /// Does nothing: the method is optional, as in MediaPipe (`@optional` in its header), so a
    /// delegate may leave it out.
    func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {}
}
