import Foundation
import TestSupport
@testable import VisionTasks

/// Reads MediaPipe reference results (shared/reference, schema mediapipe-oracle/1).
enum ReferenceData {
    /// The parsed JSON at `relative` inside shared/, or `nil` (with a printed note) when the
    /// shared data set is absent.
    static func json(_ relative: String) throws -> [String: Any]? {
        guard let path = SharedData.path(relative) else {
            print("skipping: shared reference data not found (\(relative))")
            return nil
        }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return object as? [String: Any]
    }

    /// Landmark lists of one result: `[[{x, y, z, …}]]` → normalized landmarks.
    static func hands(_ value: Any?) -> [[NormalizedLandmark]] {
        guard let hands = value as? [[[String: Any]]] else { return [] }
        return hands.map { hand in
            hand.map { point in
                NormalizedLandmark(
                    x: Float(point["x"] as? Double ?? .nan), y: Float(point["y"] as? Double ?? .nan),
                    z: Float(point["z"] as? Double ?? .nan))
            }
        }
    }
}
