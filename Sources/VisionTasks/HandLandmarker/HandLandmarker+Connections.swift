extension HandLandmarker {
    /// The palm's 6 connections: (0,1) (0,5) (9,13) (13,17) (5,9) (0,17).
    public static var handPalmConnections: [Connection] { HandConnections.palm }
    /// The thumb's 3 connections: (1,2) (2,3) (3,4).
    public static var handThumbConnections: [Connection] { HandConnections.thumb }
    /// The index finger's 3 connections: (5,6) (6,7) (7,8).
    public static var handIndexFingerConnections: [Connection] { HandConnections.indexFinger }
    /// The middle finger's 3 connections: (9,10) (10,11) (11,12).
    public static var handMiddleFingerConnections: [Connection] { HandConnections.middleFinger }
    /// The ring finger's 3 connections: (13,14) (14,15) (15,16).
    public static var handRingFingerConnections: [Connection] { HandConnections.ringFinger }
    /// The little finger's 3 connections: (17,18) (18,19) (19,20).
    public static var handPinkyConnections: [Connection] { HandConnections.pinky }
    /// The whole skeleton, 21 connections: palm, thumb, index, middle, ring and little finger
    /// in that order (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarksConnections.h).
    public static var handConnections: [Connection] { HandConnections.all }
}
