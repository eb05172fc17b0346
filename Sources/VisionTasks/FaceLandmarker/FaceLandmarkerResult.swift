/// The faces found in one image or frame: MediaPipe's `MPPFaceLandmarkerResult`
/// (mediapipe/tasks/ios/vision/face_landmarker/sources/MPPFaceLandmarkerResult.h).
///
/// ``faceLandmarks`` has one entry per face, in the order MediaPipe gives (detector order;
/// tracked faces first in video and live-stream mode). With no face all three arrays are empty.
public struct FaceLandmarkerResult: TaskResult, Sendable {
    /// The 478 landmarks of each face, normalized to the upright image: the 468 points of the
    /// face mesh, then the two irises (468–472 and 473–477, centre first). `z` is the depth
    /// relative to the face's centre, in about the scale of `x`; `visibility` and `presence` are
    /// `nil`.
    public var faceLandmarks: [[NormalizedLandmark]]
    /// The 52 blendshape scores of each face (`_neutral`, `browDownLeft`, … in the model's
    /// order, each a category with its index and name), when
    /// ``FaceLandmarkerOptions/outputFaceBlendshapes`` is set; otherwise empty.
    public var faceBlendshapes: [Classifications]
    /// The 4×4 transformation of each face from the canonical face model into the camera's
    /// space (centimetres, a perspective camera at the origin looking down −z), when
    /// ``FaceLandmarkerOptions/outputFacialTransformationMatrixes`` is set; otherwise empty. A
    /// face whose landmarks are degenerate gets no matrix, so the list may be shorter than
    /// ``faceLandmarks``, as in MediaPipe.
    public var facialTransformationMatrixes: [TransformMatrix]
    /// The frame's timestamp; 0, 1000, 2000, … in image mode.
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(
        faceLandmarks: [[NormalizedLandmark]], faceBlendshapes: [Classifications],
        facialTransformationMatrixes: [TransformMatrix], timestampInMilliseconds: Int
    ) {
        self.faceLandmarks = faceLandmarks
        self.faceBlendshapes = faceBlendshapes
        self.facialTransformationMatrixes = facialTransformationMatrixes
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// Creates a result with no face.
    public init(timestampInMilliseconds: Int = 0) {
        self.init(
            faceLandmarks: [], faceBlendshapes: [], facialTransformationMatrixes: [],
            timestampInMilliseconds: timestampInMilliseconds)
    }
}
