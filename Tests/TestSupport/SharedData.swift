import Foundation

/// Locates the read-only reference data set (`../shared` beside the package) for tests.
///
/// Order: `$VISION_TASKS_SHARED`, then `shared/` next to the package root. Tests that need it
/// skip themselves with a message when it is absent, so the suite still runs elsewhere.
public enum SharedData {
    /// The package root, derived from this file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared data directory, or `nil` when it is not there.
    public static let directory: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["VISION_TASKS_SHARED"], !path.isEmpty {
            return fileManager.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        let sibling = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return fileManager.fileExists(atPath: sibling.appendingPathComponent("models").path) ? sibling : nil
    }()

    /// Whether the shared data set is available.
    public static var isAvailable: Bool { directory != nil }

    /// The path of `relative` inside the shared directory, or `nil` when the directory or the
    /// file is missing.
    public static func path(_ relative: String) -> String? {
        guard let directory else { return nil }
        let path = directory.appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The official model files present in `shared/models`.
    public static let modelFiles = [
        "pose_landmarker_full.task", "pose_landmarker_lite.task", "hand_landmarker.task",
        "ssd_mobilenet_v1.tflite", "ssd_mobilenet_v1_no_metadata.tflite", "blaze_face_short_range.tflite",
        "selfie_segmenter.tflite",
    ]

    /// Whether the tests run in a debug build, where heavy cases scale down.
    public static var isDebugBuild: Bool {
        #if DEBUG
            return true
        #else
            return false
        #endif
    }
}

/// Serializes tests that read the process-wide allocation counter, so that one test's
/// allocations are never counted in another's measuring window.
public enum AllocationMeasurement {
    private static let lock = NSLock()

    /// Runs `body` while no other allocation measurement runs.
    public static func exclusively<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
