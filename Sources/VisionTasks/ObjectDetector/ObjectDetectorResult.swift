/// The detections of one image or frame (MediaPipe's `MPPObjectDetectorResult`).
public struct ObjectDetectorResult: TaskResult, Sendable {
    /// Detected objects, best first, with boxes in pixels of the (upright) input image.
    public var detections: [Detection]
    /// The frame's timestamp; 0, 1000, 2000, … in image mode.
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
