import Foundation
import VisionTasksCLI

let context = CommandContext(
    console: .standard(),
    environment: ProcessInfo.processInfo.environment,
    currentDirectory: FileManager.default.currentDirectoryPath)
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), context: context))
