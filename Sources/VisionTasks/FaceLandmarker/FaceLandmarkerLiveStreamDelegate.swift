/// Receives a ``FaceLandmarker``'s live-stream results, in frame order, on the landmarker's
/// serial callback queue (MediaPipe's `MPPFaceLandmarkerLiveStreamDelegate`,
/// mediapipe/tasks/ios/vision/face_landmarker/sources/MPPFaceLandmarker.h).
public protocol FaceLandmarkerLiveStreamDelegate: AnyObject {
    /// Called once per processed frame with its result, or with the error that frame raised
    /// (then `result` is `nil`). Frames the flow limiter dropped get no call.
    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
