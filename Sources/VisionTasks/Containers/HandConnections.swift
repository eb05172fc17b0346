/// The hand skeleton: pairs of hand landmark indices to draw lines between, grouped as in
/// MediaPipe (mediapipe/tasks/ios/vision/hand_landmarker/sources/MPPHandLandmarksConnections.h).
/// `HandLandmarker` exposes them publicly.
package enum HandConnections {
    /// The palm: 6 connections.
    package static let palm = PoseConnections.pairs([(0, 1), (0, 5), (9, 13), (13, 17), (5, 9), (0, 17)])
    /// The thumb: 3 connections.
    package static let thumb = PoseConnections.pairs([(1, 2), (2, 3), (3, 4)])
    /// The index finger: 3 connections.
    package static let indexFinger = PoseConnections.pairs([(5, 6), (6, 7), (7, 8)])
    /// The middle finger: 3 connections.
    package static let middleFinger = PoseConnections.pairs([(9, 10), (10, 11), (11, 12)])
    /// The ring finger: 3 connections.
    package static let ringFinger = PoseConnections.pairs([(13, 14), (14, 15), (15, 16)])
    /// The little finger: 3 connections.
    package static let pinky = PoseConnections.pairs([(17, 18), (18, 19), (19, 20)])
    /// Palm, thumb, index, middle, ring and little finger, concatenated in that order: 21
    /// connections.
    package static let all = palm + thumb + indexFinger + middleFinger + ringFinger + pinky
}
