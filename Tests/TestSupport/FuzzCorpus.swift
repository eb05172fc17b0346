import Foundation

/// The fuzzers' saved inputs in the repository's `Fuzz` folder (docs/RELIABILITY.md), which the
/// replay tests run through the same calls as the fuzz targets.
public enum FuzzCorpus {
    /// The repository's `Fuzz` folder, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// Every corpus input and past crasher of fuzz target `target`
    /// (`Fuzz/Corpus/<target>/*`, then `Fuzz/Crashers/<target>/*`), each folder in name order.
    public static func inputs(_ target: String) -> [URL] {
        ["Corpus", "Crashers"].flatMap { folder -> [URL] in
            let directory = root.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().map { directory.appendingPathComponent($0) }
        }
    }
}
