/// The faces found in one image or frame (MediaPipe's `MPPFaceDetectorResult`).
///
/// Each ``Detection`` has its box in whole pixels of the upright image, one category (index 0,
/// the face score, no names) and six keypoints normalized to the image, in MediaPipe's order:
/// right eye, left eye, nose tip, mouth centre, right ear tragion, left ear tragion (the
/// subject's sides).
public struct FaceDetectorResult: TaskResult, Sendable {
    /// The faces, in the order non-max suppression keeps them; empty when there is none.
    public var detections: [Detection]
    /// The frame's timestamp; 0, 1000, 2000, … in image mode.
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
