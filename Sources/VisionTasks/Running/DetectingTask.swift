/// The calls every vision task shares, whatever it finds: one per running mode, the count of
/// dropped live-stream frames and the wait for an idle live stream (all forwarded to its
/// ``TaskShell``). ``PoseLandmarker``, ``HandLandmarker`` and ``ObjectDetector``
/// conform, so that generic code in this package (the command-line tool's driver) can run any
/// of them.
package protocol DetectingTask: AnyObject, Sendable {
    /// The result of one image or frame.
    associatedtype DetectionResult: Sendable

    /// Image mode.
    func detect(image: MPImage) throws -> DetectionResult
    /// Video mode.
    func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> DetectionResult
    /// Live-stream mode.
    func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws
    /// Live-stream frames replaced by newer ones before they were processed.
    var droppedFrameCount: Int { get }
    /// Blocks until every queued live-stream frame is processed and its result delivered.
    func waitUntilIdle()
}

extension PoseLandmarker: DetectingTask {}
extension HandLandmarker: DetectingTask {}
extension ObjectDetector: DetectingTask {}
extension FaceDetector: DetectingTask {}
extension FaceLandmarker: DetectingTask {}
