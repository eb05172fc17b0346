import Foundation

@testable import VisionTasksCLI

/// The result of running the command line in-process.
struct CLIRun {
    var status: Int32
    var output: String
    var errors: String

    /// The output parsed as one JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        guard let dictionary = object as? [String: Any] else { throw CLIError.failed("not a JSON object") }
        return dictionary
    }
}

/// Runs `vision-tasks ARGUMENTS` in-process with an optional environment.
func runCLI(
    _ arguments: [String], environment: [String: String] = ["VISION_TASKS_OFFLINE": "1"], directory: String? = nil,
    standardInput: FileHandle = .nullDevice
) -> CLIRun {
    let recorder = RecordingConsole()
    let context = CommandContext(
        console: recorder.console, environment: environment,
        currentDirectory: directory ?? FileManager.default.currentDirectoryPath, standardInput: standardInput)
    let status = CLI.run(arguments, context: context)
    return CLIRun(status: status, output: recorder.standardOutput, errors: recorder.standardError)
}

/// A pipe whose reading end yields `text` and then the end of input, for `--driven` runs.
func drivenInput(_ text: String) throws -> FileHandle {
    let pipe = Pipe()
    try pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    try pipe.fileHandleForWriting.close()
    return pipe.fileHandleForReading
}

/// A fresh empty directory under the temporary folder.
func temporaryDirectory(_ label: String) throws -> String {
    let path = NSTemporaryDirectory() + "vision-tasks-tests-\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
