import Foundation
import ModelFile
import VisionTasks

/// The folder where provisioned models live, and the state of each catalog file in it.
package struct ModelStore {
    /// The state of one catalog file.
    package enum Status: Equatable {
        case missing
        /// Present and matching its pinned checksum.
        case verified
        /// Present, no checksum pinned, but it parses as the kind of file it should be.
        case unverified
        /// Present but with another checksum (a different or damaged file).
        case mismatch(actual: String)
        /// Present, no checksum pinned, and it does not parse.
        case invalid(reason: String)

        /// Whether the file can be used.
        package var isUsable: Bool { self == .verified || self == .unverified }

        package var label: String {
            switch self {
            case .missing: return "missing"
            case .verified: return "verified"
            case .unverified: return "present (no pinned checksum)"
            case .mismatch: return "checksum mismatch"
            case .invalid: return "invalid"
            }
        }
    }

    package let directory: String

    /// The models folder: `explicit`, else `$VISION_TASKS_MODELS`, else `Models/` in the
    /// current directory.
    package init(explicit: String?, context: CommandContext) {
        directory =
            explicit.map(context.absolute)
            ?? ModelsFolder.path(environment: context.environment, resolve: context.absolute)
    }

    package func path(of entry: CatalogEntry) -> String { directory + "/" + entry.fileName }

    /// Checks the file for `entry` in the folder.
    package func status(of entry: CatalogEntry) -> Status {
        let path = path(of: entry)
        guard FileManager.default.fileExists(atPath: path), let storage = try? ByteStorage(mappingFileAt: path) else {
            return .missing
        }
        return ModelStore.check(storage.all, against: entry)
    }

    /// Checks `bytes` against what `entry` pins, or structurally when nothing is pinned.
    package static func check(_ bytes: ByteRange, against entry: CatalogEntry) -> Status {
        if let expected = entry.sha256 {
            let actual = SHA256.hex(of: bytes.bytes)
            return actual == expected ? .verified : .mismatch(actual: actual)
        }
        if entry.fileName.hasSuffix(".task") || entry.fileName.hasSuffix(".tflite") {
            do {
                _ = try ModelContainer(bytes: bytes, fileName: entry.fileName).models()
                return .unverified
            } catch {
                return .invalid(reason: CLI.message(for: error))
            }
        }
        return .unverified
    }
}
