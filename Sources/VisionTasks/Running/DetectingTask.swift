/// The calls every vision task shares, whatever it finds: one per running mode and the count
/// of dropped live-stream frames. ``PoseLandmarker``, ``HandLandmarker`` and ``ObjectDetector``
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
}

extension PoseLandmarker: DetectingTask {}
extension HandLandmarker: DetectingTask {}
extension ObjectDetector: DetectingTask {}
