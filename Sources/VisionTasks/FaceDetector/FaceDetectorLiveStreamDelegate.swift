/// Receives a ``FaceDetector``'s live-stream results, in frame order, on the detector's serial
/// callback queue (MediaPipe's `MPPFaceDetectorLiveStreamDelegate`,
/// mediapipe/tasks/ios/vision/face_detector/sources/MPPFaceDetector.h).
public protocol FaceDetectorLiveStreamDelegate: AnyObject {
    /// Called once per processed frame with its result, or with the error that frame raised
    /// (then `result` is `nil`). Frames the flow limiter dropped get no call.
    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

extension FaceDetectorLiveStreamDelegate {
    /// Does nothing: the method is optional, as in MediaPipe (`@optional` in its header), so a
    /// delegate may leave it out.
    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {}
}
