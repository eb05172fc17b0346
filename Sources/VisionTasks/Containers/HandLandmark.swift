/// The 21 hand landmarks, in the order the hand landmark model outputs them.
///
/// Mirrors MediaPipe's `MPPHandLandmark`
/// (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarker.h); the raw value is the
/// index into `HandLandmarkerResult.landmarks[hand]`. The tips are spelled `thumbTip` … `pinkyTip`
/// (../shared/spec/CONTRACT.md); upstream's `…TIP` spellings are kept as aliases.
public enum HandLandmark: Int, Sendable, CaseIterable {
    /// The wrist.
    case wrist = 0
    /// The thumb's carpometacarpal joint.
    case thumbCMC = 1
    /// The thumb's metacarpophalangeal joint.
    case thumbMCP = 2
    /// The thumb's interphalangeal joint.
    case thumbIP = 3
    /// The tip of the thumb.
    case thumbTip = 4
    /// The index finger's metacarpophalangeal joint.
    case indexFingerMCP = 5
    /// The index finger's proximal interphalangeal joint.
    case indexFingerPIP = 6
    /// The index finger's distal interphalangeal joint.
    case indexFingerDIP = 7
    /// The tip of the index finger.
    case indexFingerTip = 8
    /// The middle finger's metacarpophalangeal joint.
    case middleFingerMCP = 9
    /// The middle finger's proximal interphalangeal joint.
    case middleFingerPIP = 10
    /// The middle finger's distal interphalangeal joint.
    case middleFingerDIP = 11
    /// The tip of the middle finger.
    case middleFingerTip = 12
    /// The ring finger's metacarpophalangeal joint.
    case ringFingerMCP = 13
    /// The ring finger's proximal interphalangeal joint.
    case ringFingerPIP = 14
    /// The ring finger's distal interphalangeal joint.
    case ringFingerDIP = 15
    /// The tip of the ring finger.
    case ringFingerTip = 16
    /// The little finger's metacarpophalangeal joint.
    case pinkyMCP = 17
    /// The little finger's proximal interphalangeal joint.
    case pinkyPIP = 18
    /// The little finger's distal interphalangeal joint.
    case pinkyDIP = 19
    /// The tip of the little finger.
    case pinkyTip = 20

    /// Upstream's spelling of ``thumbTip``.
    public static var thumbTIP: HandLandmark { .thumbTip }
    /// Upstream's spelling of ``indexFingerTip``.
    public static var indexFingerTIP: HandLandmark { .indexFingerTip }
    /// Upstream's spelling of ``middleFingerTip``.
    public static var middleFingerTIP: HandLandmark { .middleFingerTip }
    /// Upstream's spelling of ``ringFingerTip``.
    public static var ringFingerTIP: HandLandmark { .ringFingerTip }
    /// Upstream's spelling of ``pinkyTip``.
    public static var pinkyTIP: HandLandmark { .pinkyTip }
}
