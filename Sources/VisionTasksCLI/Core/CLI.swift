import Foundation
import ModelFile

/// The `vision-tasks` command line: dispatch, help, and the error contract (one
/// `error: <message>` line on standard error; exit status 1 for failures, 2 for usage errors).
package enum CLI {
    /// The tool's version.
    package static let version = "0.1.0"

    /// Every subcommand, in the order `help` lists them.
    package static var commands: [any Command.Type] {
        [
            InspectCommand.self,
            ModelsCommand.self,
            PoseCommand.self,
            HandsCommand.self,
            ObjectsCommand.self,
            FacesCommand.self,
            FaceLandmarksCommand.self,
            SegmentCommand.self,
            ServeCommand.self,
            BenchCommand.self,
            RunModelCommand.self,
            BenchModelCommand.self,
        ]
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    package static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        guard let first = arguments.first else {
            context.console.log(overview())
            return 2
        }
        switch first {
        case "help", "--help", "-h":
            if arguments.count > 1, let command = command(named: arguments[1]) {
                context.console.print(command.usage)
            } else {
                context.console.print(overview())
            }
            return 0
        case "--version", "version":
            context.console.print("vision-tasks \(version)")
            return 0
        default:
            break
        }
        guard let command = command(named: first) else {
            context.console.log("error: unknown command '\(first)'\n\n" + overview())
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            context.console.print(command.usage)
            return 0
        }
        do {
            return try command.run(rest, context: context)
        } catch let CLIError.usage(message) {
            context.console.log("error: \(message)\n\nusage: \(command.usage)")
            return 2
        } catch {
            context.console.log("error: \(message(for: error))")
            return 1
        }
    }

    /// The text of an error as the user should read it.
    package static func message(for error: any Error) -> String {
        if let error = error as? LocalizedError, let text = error.errorDescription { return text }
        return String(describing: error)
    }

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static func overview() -> String {
        var lines = ["vision-tasks \(version): MediaPipe-compatible vision tasks in Swift", "", "commands:"]
        let width = commands.map { $0.name.count }.max() ?? 0
        for command in commands {
            lines.append(
                "  " + command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary)
        }
        lines.append("")
        lines.append("Run 'vision-tasks help COMMAND' for a command's options.")
        return lines.joined(separator: "\n")
    }
}
