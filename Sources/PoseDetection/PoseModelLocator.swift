import Foundation
import VisionTasks

/// Finds the model file a pose detector runs.
///
/// The option's `modelPath` when set; else the first of the detector's default file names found
/// in the app bundle's resources (`Bundle.main`, where ML Kit apps ship their models), then in
/// the models folder (the command-line tool's rule, its `ModelStore`). The models folder is
/// `$VISION_TASKS_MODELS` when set and not empty, else `Models` in the current directory;
/// relative paths are resolved against the current directory.
struct PoseModelLocator: Sendable {
    /// The environment variable naming the models folder.
    static let environmentVariable = ModelsFolder.environmentVariable

    /// The process environment the folder is looked up in.
    var environment: [String: String]
    /// The directory relative paths are resolved against.
    var currentDirectory: String
    /// The app bundle's resource folder, searched before the models folder; `nil` for none.
    var bundleResources: String?

    /// A locator reading this process's environment, current directory and main bundle.
    static func current() -> PoseModelLocator {
        PoseModelLocator(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath, bundleResources: Bundle.main.resourcePath)
    }

    /// The models folder, as an absolute path.
    var modelsFolder: String {
        ModelsFolder.path(environment: environment, resolve: absolute)
    }

    /// The model for `options`: its `modelPath`, or the first default file found in the app
    /// bundle's resources, then in the models folder.
    ///
    /// - Throws: ``TasksError/modelFileNotFound(path:reason:)`` when `modelPath` is not set and
    ///   none of the default files is in either place; the message names both.
    func modelPath(for modelPath: String?, defaultFileNames: [String]) throws(TasksError) -> String {
        if let modelPath, !modelPath.isEmpty { return absolute(modelPath) }
        let folder = modelsFolder
        let folders = [bundleResources, folder].compactMap { $0 }
        for directory in folders {
            for name in defaultFileNames {
                let candidate = (directory as NSString).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
            }
        }
        let wanted = defaultFileNames.joined(separator: " or ")
        let bundle = bundleResources.map { "the app bundle's resources \($0) or " } ?? ""
        throw TasksError.modelFileNotFound(
            path: (folder as NSString).appendingPathComponent(defaultFileNames.last ?? ""),
            reason: "no \(wanted) in \(bundle)the models folder \(folder) (add the model to the app's "
                + "resources, set \(Self.environmentVariable) to the folder holding the models, or set the "
                + "options' modelPath)")
    }

    /// `path` resolved against ``currentDirectory`` (`~/` against `$HOME`).
    private func absolute(_ path: String) -> String {
        var full = path
        if path.hasPrefix("~/"), let home = environment["HOME"] {
            full = home + path.dropFirst(1)
        } else if !path.hasPrefix("/") {
            full = (currentDirectory as NSString).appendingPathComponent(path)
        }
        return URL(fileURLWithPath: full).standardized.path
    }
}
