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

    /// The landmark's name, as ``rawValue``.
    public var description: String { rawValue }

    /// The nose (BlazePose index 0).
    public static let nose = PoseLandmarkType(rawValue: "nose")
    /// The left eye inner (BlazePose index 1).
    public static let leftEyeInner = PoseLandmarkType(rawValue: "leftEyeInner")
    /// The left eye (BlazePose index 2).
    public static let leftEye = PoseLandmarkType(rawValue: "leftEye")
    /// The left eye outer (BlazePose index 3).
    public static let leftEyeOuter = PoseLandmarkType(rawValue: "leftEyeOuter")
    /// The right eye inner (BlazePose index 4).
    public static let rightEyeInner = PoseLandmarkType(rawValue: "rightEyeInner")
    /// The right eye (BlazePose index 5).
    public static let rightEye = PoseLandmarkType(rawValue: "rightEye")
    /// The right eye outer (BlazePose index 6).
    public static let rightEyeOuter = PoseLandmarkType(rawValue: "rightEyeOuter")
    /// The left ear (BlazePose index 7).
    public static let leftEar = PoseLandmarkType(rawValue: "leftEar")
    /// The right ear (BlazePose index 8).
    public static let rightEar = PoseLandmarkType(rawValue: "rightEar")
    /// The mouth left (BlazePose index 9).
    public static let mouthLeft = PoseLandmarkType(rawValue: "mouthLeft")
    /// The mouth right (BlazePose index 10).
    public static let mouthRight = PoseLandmarkType(rawValue: "mouthRight")
    /// The left shoulder (BlazePose index 11).
    public static let leftShoulder = PoseLandmarkType(rawValue: "leftShoulder")
    /// The right shoulder (BlazePose index 12).
    public static let rightShoulder = PoseLandmarkType(rawValue: "rightShoulder")
    /// The left elbow (BlazePose index 13).
    public static let leftElbow = PoseLandmarkType(rawValue: "leftElbow")
    /// The right elbow (BlazePose index 14).
    public static let rightElbow = PoseLandmarkType(rawValue: "rightElbow")
    /// The left wrist (BlazePose index 15).
    public static let leftWrist = PoseLandmarkType(rawValue: "leftWrist")
    /// The right wrist (BlazePose index 16).
    public static let rightWrist = PoseLandmarkType(rawValue: "rightWrist")
    /// The left pinky finger (BlazePose index 17).
    public static let leftPinkyFinger = PoseLandmarkType(rawValue: "leftPinkyFinger")
    /// The right pinky finger (BlazePose index 18).
    public static let rightPinkyFinger = PoseLandmarkType(rawValue: "rightPinkyFinger")
    /// The left index finger (BlazePose index 19).
    public static let leftIndexFinger = PoseLandmarkType(rawValue: "leftIndexFinger")
    /// The right index finger (BlazePose index 20).
    public static let rightIndexFinger = PoseLandmarkType(rawValue: "rightIndexFinger")
    /// The left thumb (BlazePose index 21).
    public static let leftThumb = PoseLandmarkType(rawValue: "leftThumb")
    /// The right thumb (BlazePose index 22).
    public static let rightThumb = PoseLandmarkType(rawValue: "rightThumb")
    /// The left hip (BlazePose index 23).
    public static let leftHip = PoseLandmarkType(rawValue: "leftHip")
    /// The right hip (BlazePose index 24).
    public static let rightHip = PoseLandmarkType(rawValue: "rightHip")
    /// The left knee (BlazePose index 25).
    public static let leftKnee = PoseLandmarkType(rawValue: "leftKnee")
    /// The right knee (BlazePose index 26).
    public static let rightKnee = PoseLandmarkType(rawValue: "rightKnee")
    /// The left ankle (BlazePose index 27).
    public static let leftAnkle = PoseLandmarkType(rawValue: "leftAnkle")
    /// The right ankle (BlazePose index 28).
    public static let rightAnkle = PoseLandmarkType(rawValue: "rightAnkle")
    /// The left heel (BlazePose index 29).
    public static let leftHeel = PoseLandmarkType(rawValue: "leftHeel")
    /// The right heel (BlazePose index 30).
    public static let rightHeel = PoseLandmarkType(rawValue: "rightHeel")
    /// The left toe (BlazePose index 31).
    public static let leftToe = PoseLandmarkType(rawValue: "leftToe")
    /// The right toe (BlazePose index 32).
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
