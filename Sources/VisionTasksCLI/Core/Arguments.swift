/// A command's parsed arguments: positionals, flags and options with values.
///
/// Options are written `--name value` or `--name=value`; `--` ends option parsing. An option
/// the command does not declare is a usage error (exit status 2).
package struct Arguments: Sendable {
    package private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments` against the declared `flags` (no value) and `options` (one value each,
    /// repeatable). Option names are given without the leading dashes.
    package init(_ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositionals, argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil {
                    throw CLIError.usage("unknown option '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw CLIError.usage("--\(name) takes no value") }
                flags.insert(name)
            } else if knownOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw CLIError.usage("--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values[name, default: []].append(value)
            } else {
                throw CLIError.usage("unknown option '--\(name)'")
            }
        }
    }

    /// Whether flag `name` was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of option `name`.
    package func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    package func values(_ name: String) -> [String] { values[name] ?? [] }

    /// Option `name` as an integer within `range`.
    package func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CLIError.usage(
                "--\(name) needs a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// Option `name` as a floating-point number within `range`.
    package func number(
        _ name: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    ) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw CLIError.usage("--\(name) needs a number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return number
    }
}

/// Errors of the command-line layer itself.
package enum CLIError: Error, CustomStringConvertible {
    /// The command line is wrong (exit status 2).
    case usage(String)
    /// The command ran and failed (exit status 1).
    case failed(String)

    package var description: String {
        switch self {
        case .usage(let message), .failed(let message): return message
        }
    }
}
