/// Receives a ``HandLandmarker``'s live-stream results, in frame order, on the landmarker's
/// serial callback queue (MediaPipe's `MPPHandLandmarkerLiveStreamDelegate`,
/// mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarker.h).
public protocol HandLandmarkerLiveStreamDelegate: AnyObject {
    /// Called once per processed frame with its result, or with the error that frame raised
    /// (then `result` is `nil`). Frames the flow limiter dropped get no call.
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

extension HandLandmarkerLiveStreamDelegate {
    /// Does nothing: the method is optional, as in MediaPipe (`@optional` in its header), so a
    /// delegate may leave it out.
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {}
}
