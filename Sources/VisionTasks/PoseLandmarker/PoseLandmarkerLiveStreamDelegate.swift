/// Receives a ``PoseLandmarker``'s live-stream results — MediaPipe's
/// `MPPPoseLandmarkerLiveStreamDelegate`
/// (mediapipe/tasks/ios/vision/pose_landmarker/sources/MPPPoseLandmarker.h).
///
/// Calls arrive in frame order on the landmarker's private serial queue, one per processed
/// frame; frames the flow limiter dropped get no call.
public protocol PoseLandmarkerLiveStreamDelegate: AnyObject {
    /// Called with the result of the frame stamped `timestampInMilliseconds`, or with the error
    /// processing it raised (then `result` is `nil`).
    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
