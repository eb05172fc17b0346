/// One detected landmark of a ``Pose`` (ML Kit's `PoseLandmark`).
public struct PoseLandmark: Sendable, Equatable {
    /// Which body part this is.
    public let type: PoseLandmarkType
    /// Position in input-image pixels; z uses the same scale as x (see docs/DIFFERENCES.md).
    public let position: Vision3DPoint
    /// How likely the landmark is inside the image frame, in [0, 1].
    public let inFrameLikelihood: Float

    /// Creates a landmark.
    public init(type: PoseLandmarkType, position: Vision3DPoint, inFrameLikelihood: Float) {
        self.type = type
        self.position = position
        self.inFrameLikelihood = inFrameLikelihood
    }
}

/// A detected person: all 33 landmarks (ML Kit's `Pose`).
public struct Pose: Sendable, Equatable {
    /// The 33 landmarks in ``PoseLandmarkType/allTypes`` order.
    public let landmarks: [PoseLandmark]

    /// Creates a pose from its landmarks.
    public init(landmarks: [PoseLandmark]) {
        self.landmarks = landmarks
    }

    /// The landmark of `type`. Like ML Kit's, never `nil`: for a type that is not one of the 33,
    /// a landmark at the origin with zero likelihood is returned.
    public func landmark(ofType type: PoseLandmarkType) -> PoseLandmark {
        if let index = type.index, index < landmarks.count, landmarks[index].type == type {
            return landmarks[index]
        }
        return landmarks.first { $0.type == type }
            ?? PoseLandmark(type: type, position: Vision3DPoint(x: 0, y: 0, z: 0), inFrameLikelihood: 0)
    }
}
