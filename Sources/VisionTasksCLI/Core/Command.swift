import Foundation

/// One `vision-tasks` subcommand.
package protocol Command {
    /// The word that selects the command (`inspect`).
    static var name: String { get }
    /// A one-line description for `vision-tasks help`.
    static var summary: String { get }
    /// The usage text printed by `vision-tasks help NAME` and after a usage error.
    static var usage: String { get }
    /// Runs the command with the arguments that follow its name; returns the exit status.
    static func run(_ arguments: [String], context: CommandContext) throws -> Int32
}

/// What a command may use from its environment.
package struct CommandContext: Sendable {
    package var console: Console
    package var environment: [String: String]
    package var currentDirectory: String
    /// Where `--raw-stdin` reads frames (the process's standard input unless a test gives a pipe).
    package var standardInput: FileHandle

    package init(
        console: Console, environment: [String: String], currentDirectory: String,
        standardInput: FileHandle = .standardInput
    ) {
        self.console = console
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.standardInput = standardInput
    }

    /// Resolves `path` against the current directory.
    package func absolute(_ path: String) -> String {
        var full = currentDirectory + "/" + path
        if path.hasPrefix("/") {
            full = path
        } else if path.hasPrefix("~/"), let home = environment["HOME"] {
            full = home + path.dropFirst(1)
        }
        return URL(fileURLWithPath: full).standardized.path
    }
}
