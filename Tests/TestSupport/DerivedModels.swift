import Foundation

/// Models the tests derive from ../shared's official files with the committed scripts in
/// `scripts/reference` (never committed themselves). `.ci/run` writes them into
/// `.build/derived-models` before the tests; elsewhere `scripts/reference/make_derived_models.sh`
/// does.
public enum DerivedModels {
    /// The folder the derived models are written to.
    public static let directory = SharedData.packageRoot.appendingPathComponent(".build/derived-models")

    /// The path of derived model `name`, or `nil` when it has not been made.
    public static func path(_ name: String) -> String? {
        let path = directory.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Whether a missing derived model is an error rather than a skip: in CI with ../shared
    /// present, `.ci/run` must have made them.
    public static var areRequired: Bool {
        SharedData.isAvailable && ProcessInfo.processInfo.environment["CI"] == "true"
    }
}
