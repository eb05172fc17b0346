/// Receives an ``ObjectDetector``'s live-stream results, in frame order, on the detector's
/// serial callback queue (MediaPipe's `MPPObjectDetectorLiveStreamDelegate`).
public protocol ObjectDetectorLiveStreamDelegate: AnyObject {
    /// Called once per processed frame with its result, or with the error that frame raised.
    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

extension ObjectDetectorLiveStreamDelegate {
    /// Does nothing: the method is optional, as in MediaPipe (`@optional` in its header), so a
    /// delegate may leave it out.
    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {}
}
