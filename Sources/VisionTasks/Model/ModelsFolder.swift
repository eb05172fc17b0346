/// The folder where model files are looked up when no path is given: `$VISION_TASKS_MODELS`
/// when set and not empty, else `Models` in the current directory. Shared by the ML Kit-style
/// `PoseDetector` and the command-line tool so that both find the same files.
package enum ModelsFolder {
    /// The environment variable that names the models folder.
    package static let environmentVariable = "VISION_TASKS_MODELS"
    /// The folder used when the variable is not set, relative to the current directory.
    package static let defaultName = "Models"

    /// The models folder for `environment`, made absolute by `resolve` (which applies the
    /// caller's current directory and home).
    package static func path(environment: [String: String], resolve: (String) -> String) -> String {
        if let folder = environment[environmentVariable], !folder.isEmpty { return resolve(folder) }
        return resolve(defaultName)
    }
}
