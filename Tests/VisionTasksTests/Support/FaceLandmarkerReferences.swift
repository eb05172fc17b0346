import Foundation
import TestSupport
import Testing

/// The faces of ../shared/reference/face_landmarker's IMAGE-mode results, for tests that feed
/// MediaPipe's own landmarks to one stage of the pipeline.
enum FaceLandmarkerReferences {
    struct Face {
        /// MediaPipe's 478 landmarks (normalized x, y; z in x's scale).
        var landmarks: [SIMD3<Float>]
        /// The stored image's size.
        var width: Int
        var height: Int
        /// The face's entry in the result's list named by the caller.
        var expected: Any
    }

    /// Every face of every run whose result holds a non-empty list `key` (such as
    /// `face_blendshapes`), paired with that list's entry for the face.
    static func faces(withResult key: String) throws -> [Face] {
        var faces: [Face] = []
        for name in References.imageNames(task: "face_landmarker") {
            let document = try #require(try SegmentationReference.json("reference/face_landmarker/\(name).json"))
            let image = try #require(document["image"] as? [String: Any])
            let width = try #require(image["width"] as? Int)
            let height = try #require(image["height"] as? Int)
            let runs = try #require(document["runs"] as? [String: Any])
            for (_, value) in runs {
                let result = try #require((value as? [String: Any])?["result"] as? [String: Any])
                guard let entries = result[key] as? [Any], !entries.isEmpty,
                    let lists = result["face_landmarks"] as? [[[String: Any]]]
                else { continue }
                for (list, entry) in zip(lists, entries) {
                    let landmarks = list.map {
                        SIMD3(
                            Float($0["x"] as? Double ?? .nan), Float($0["y"] as? Double ?? .nan),
                            Float($0["z"] as? Double ?? .nan))
                    }
                    faces.append(Face(landmarks: landmarks, width: width, height: height, expected: entry))
                }
            }
        }
        return faces
    }
}
