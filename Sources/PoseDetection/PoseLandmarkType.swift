/// The 33 body landmarks ML Kit reports, in ML Kit's order (the BlazePose indices 0–32).
///
/// Like ML Kit's `PoseLandmarkType`, a string-valued type with one constant per landmark; the raw
/// values are the Swift names (`"leftAnkle"`). Names: ML Kit iOS reference, `MLKPoseLandmarkType`
/// constants (../shared/spec/API.md §11.2).
public struct PoseLandmarkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The landmark's name, e.g. `"leftAnkle"`.
    public let rawValue: String

    /// Creates a type from its name; any string is accepted, as with ML Kit's string constants.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let nose = PoseLandmarkType(rawValue: "nose")
    public static let leftEyeInner = PoseLandmarkType(rawValue: "leftEyeInner")
    public static let leftEye = PoseLandmarkType(rawValue: "leftEye")
    public static let leftEyeOuter = PoseLandmarkType(rawValue: "leftEyeOuter")
    public static let rightEyeInner = PoseLandmarkType(rawValue: "rightEyeInner")
    public static let rightEye = PoseLandmarkType(rawValue: "rightEye")
    public static let rightEyeOuter = PoseLandmarkType(rawValue: "rightEyeOuter")
    public static let leftEar = PoseLandmarkType(rawValue: "leftEar")
    public static let rightEar = PoseLandmarkType(rawValue: "rightEar")
    public static let mouthLeft = PoseLandmarkType(rawValue: "mouthLeft")
    public static let mouthRight = PoseLandmarkType(rawValue: "mouthRight")
    public static let leftShoulder = PoseLandmarkType(rawValue: "leftShoulder")
    public static let rightShoulder = PoseLandmarkType(rawValue: "rightShoulder")
    public static let leftElbow = PoseLandmarkType(rawValue: "leftElbow")
    public static let rightElbow = PoseLandmarkType(rawValue: "rightElbow")
    public static let leftWrist = PoseLandmarkType(rawValue: "leftWrist")
    public static let rightWrist = PoseLandmarkType(rawValue: "rightWrist")
    public static let leftPinkyFinger = PoseLandmarkType(rawValue: "leftPinkyFinger")
    public static let rightPinkyFinger = PoseLandmarkType(rawValue: "rightPinkyFinger")
    public static let leftIndexFinger = PoseLandmarkType(rawValue: "leftIndexFinger")
    public static let rightIndexFinger = PoseLandmarkType(rawValue: "rightIndexFinger")
    public static let leftThumb = PoseLandmarkType(rawValue: "leftThumb")
    public static let rightThumb = PoseLandmarkType(rawValue: "rightThumb")
    public static let leftHip = PoseLandmarkType(rawValue: "leftHip")
    public static let rightHip = PoseLandmarkType(rawValue: "rightHip")
    public static let leftKnee = PoseLandmarkType(rawValue: "leftKnee")
    public static let rightKnee = PoseLandmarkType(rawValue: "rightKnee")
    public static let leftAnkle = PoseLandmarkType(rawValue: "leftAnkle")
    public static let rightAnkle = PoseLandmarkType(rawValue: "rightAnkle")
    public static let leftHeel = PoseLandmarkType(rawValue: "leftHeel")
    public static let rightHeel = PoseLandmarkType(rawValue: "rightHeel")
    public static let leftToe = PoseLandmarkType(rawValue: "leftToe")
    public static let rightToe = PoseLandmarkType(rawValue: "rightToe")

    /// All 33 types in ML Kit's (and BlazePose's) order.
    public static let allTypes: [PoseLandmarkType] = [
        .nose, .leftEyeInner, .leftEye, .leftEyeOuter, .rightEyeInner, .rightEye, .rightEyeOuter,
        .leftEar, .rightEar, .mouthLeft, .mouthRight, .leftShoulder, .rightShoulder, .leftElbow,
        .rightElbow, .leftWrist, .rightWrist, .leftPinkyFinger, .rightPinkyFinger, .leftIndexFinger,
        .rightIndexFinger, .leftThumb, .rightThumb, .leftHip, .rightHip, .leftKnee, .rightKnee,
        .leftAnkle, .rightAnkle, .leftHeel, .rightHeel, .leftToe, .rightToe,
    ]

    /// The BlazePose landmark index (0–32), or `nil` for a name that is not one of the 33.
    public var index: Int? { PoseLandmarkType.allTypes.firstIndex(of: self) }

    /// The type whose side is swapped (`leftWrist` ↔ `rightWrist`); `nose` stays `nose`.
    public var mirrored: PoseLandmarkType {
        if rawValue.hasPrefix("left") { return PoseLandmarkType(rawValue: "right" + rawValue.dropFirst(4)) }
        if rawValue.hasPrefix("right") { return PoseLandmarkType(rawValue: "left" + rawValue.dropFirst(5)) }
        if self == .mouthLeft { return .mouthRight }
        if self == .mouthRight { return .mouthLeft }
        return self
    }
}
