import Inference
import ModelFile

/// `vision-tasks inspect FILE [--json]`: what a `.tflite` model or `.task` bundle contains.
package enum InspectCommand: Command {
    package static let name = "inspect"
    package static let summary = "show the members, tensors, operators, MACs and metadata of a model file"
    package static let usage = "vision-tasks inspect FILE [--json]"

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: ["json"], options: [])
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            throw CLIError.usage("inspect takes exactly one FILE")
        }
        let report = try ModelReport(path: context.absolute(file), displayName: file)
        if parsed.flag("json") {
            context.console.print(json: report.json)
        } else {
            context.console.print(report.text)
        }
        return 0
    }
}

/// The facts `inspect` shows for one file.
package struct ModelReport {
    package let file: String
    package let kind: ModelContainer.Kind
    package let members: [String]
    package let models: [(name: String, summary: ModelSummary)]
    /// Per model, the operators (by name) that the engine does not implement.
    package let unsupportedOperators: [String: Set<String>]

    package init(path: String, displayName: String) throws {
        let container = try ModelContainer(contentsOfFile: path)
        file = displayName
        kind = container.kind
        members = container.bundle?.memberNames ?? []
        let loaded = try container.models()
        models = try loaded.map { ($0.name, try ModelSummary(model: $0.model)) }
        unsupportedOperators = Dictionary(
            loaded.map { entry in
                (entry.name, Set(entry.model.operatorCodes.filter { !EngineOperators.implements($0) }.map(\.name)))
            },
            uniquingKeysWith: { first, _ in first })
    }

    // MARK: JSON

    package var json: JSONValue {
        var fields: [(String, JSONValue)] = [("file", .string(file)), ("kind", .string(kind.rawValue))]
        if kind == .bundle { fields.append(("members", .array(members.map(JSONValue.string)))) }
        fields.append(
            (
                "models",
                .array(
                    models.map {
                        ModelReport.json(
                            name: $0.name, summary: $0.summary,
                            unsupported: unsupportedOperators[$0.name]?.sorted() ?? [])
                    })
            ))
        return .object(fields)
    }

    private static func json(name: String, summary s: ModelSummary, unsupported: [String]) -> JSONValue {
        .object([
            ("name", .string(name)),
            ("unsupportedOps", .array(unsupported.map(JSONValue.string))),
            ("inputs", .array(s.inputs.map(json))),
            ("outputs", .array(s.outputs.map(json))),
            ("ops", .object(sortedCounts(s.operatorCounts).map { ($0.name, .int($0.count)) })),
            ("opCount", .int(s.operatorCount)),
            ("macs", .int(s.macs)),
            ("macsByOp", .object(s.macsByOperator.map { ($0.name, .int($0.macs)) })),
            ("parameters", .int(s.parameters)),
            ("metadata", s.metadata.map(json) ?? .null),
            ("metadataEntries", .object(s.metadataEntries.map { ($0.name, .string($0.value)) })),
            (
                "customOptions",
                .array(
                    s.customOperators.map { op in
                        .object([("op", .string(op.name)), ("options", json(op.options))])
                    })
            ),
        ])
    }

    fileprivate static func json(_ options: CustomOptionsSummary) -> JSONValue {
        switch options {
        case .none: return .null
        case .flexbuffer(let value): return json(value)
        case .transposeConvolution(let parameters):
            return .object([
                ("padding", .string(parameters.padding == .same ? "SAME" : "VALID")),
                ("strideWidth", .int(parameters.strideWidth)), ("strideHeight", .int(parameters.strideHeight)),
            ])
        case .opaque(let byteCount): return .object([("opaqueBytes", .int(byteCount))])
        }
    }

    fileprivate static func json(_ value: FlexValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .int(let number): return .int(Int(number))
        case .uint(let number): return number <= UInt64(Int.max) ? .int(Int(number)) : .double(Double(number))
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .blob(let bytes): return .ints(bytes.map(Int.init))
        case .vector(let values): return .array(values.map(json))
        case .map(let entries): return .object(entries.map { ($0.0, json($0.1)) })
        }
    }

    private static func json(_ tensor: ModelSummary.TensorInfo) -> JSONValue {
        var quantization = JSONValue.null
        if !tensor.scale.isEmpty {
            quantization = .object([
                ("scale", .floats(tensor.scale)),
                ("zeroPoint", .ints(tensor.zeroPoint.map { Int($0) })),
                ("quantizedDimension", .int(tensor.quantizedDimension)),
            ])
        }
        return .object([
            ("name", .string(tensor.name)), ("shape", .ints(tensor.shape)),
            ("dtype", .string(tensor.type)), ("quantization", quantization),
        ])
    }

    private static func json(_ m: ModelSummary.MetadataInfo) -> JSONValue {
        var normalization = JSONValue.null
        if let mean = m.mean, let std = m.std {
            normalization = .object([("mean", .floats(mean)), ("std", .floats(std))])
        }
        return .object([
            ("name", .string(m.name)), ("version", .string(m.version)),
            ("normalization", normalization),
            ("outputNames", .array(m.outputNames.map(JSONValue.string))),
            ("associatedFiles", .array(m.associatedFiles.map(JSONValue.string))),
            ("labelCount", m.labelCount.map(JSONValue.int) ?? .null),
            ("labels", .array(m.firstLabels.map(JSONValue.string))),
        ])
    }

    /// Most frequent first, then by name: the order MODELS.md uses.
    private static func sortedCounts(_ counts: [(name: String, count: Int)]) -> [(name: String, count: Int)] {
        counts.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
    }

    // MARK: Text

    package var text: String {
        var lines = ["\(file): \(kind == .bundle ? "model bundle" : "TFLite model")"]
        if kind == .bundle { lines.append("members: " + members.joined(separator: ", ")) }
        for (name, s) in models {
            lines.append("")
            lines.append("== \(name)")
            for (label, tensors) in [("input", s.inputs), ("output", s.outputs)] {
                for tensor in tensors {
                    var line =
                        "  \(label) \(tensor.name): \(tensor.type) "
                        + "[\(tensor.shape.map(String.init).joined(separator: ", "))]"
                    if !tensor.scale.isEmpty {
                        line +=
                            tensor.scale.count == 1
                            ? " scale \(tensor.scale[0].description)" : " scale \(tensor.scale.count) per-channel"
                        line +=
                            " zero point \(tensor.zeroPoint.count == 1 ? String(tensor.zeroPoint[0]) : "per-channel")"
                    }
                    lines.append(line)
                }
            }
            lines.append("  operators: \(s.operatorCount)")
            let unsupported = unsupportedOperators[name] ?? []
            for (op, count) in ModelReport.sortedCounts(s.operatorCounts) {
                lines.append(
                    "    " + op.padding(toLength: 36, withPad: " ", startingAt: 0) + String(count)
                        + (unsupported.contains(op) ? "  (not implemented by the engine)" : ""))
            }
            lines.append(
                "  MACs: \(grouped(s.macs))"
                    + (s.macsByOperator.isEmpty
                        ? ""
                        : " ("
                            + s.macsByOperator.map { "\($0.name) \(grouped($0.macs))" }.joined(separator: ", ") + ")")
            )
            lines.append("  parameters: \(grouped(s.parameters))")
            for (op, options) in s.customOperators {
                let text = options == .none ? "none" : ModelReport.json(options).serialized()
                lines.append("  \(op) options: " + text)
            }
            for (entry, value) in s.metadataEntries {
                lines.append("  \(entry): \(value ?? "-")")
            }
            if let m = s.metadata {
                lines.append("  metadata: \(m.name ?? "(unnamed)")" + (m.version.map { " version \($0)" } ?? ""))
                if let mean = m.mean, let std = m.std {
                    lines.append("    input normalization: mean \(mean), std \(std)")
                }
                if !m.outputNames.isEmpty { lines.append("    output names: " + m.outputNames.joined(separator: ", ")) }
                if !m.associatedFiles.isEmpty {
                    lines.append("    associated files: " + m.associatedFiles.joined(separator: ", "))
                }
                if let count = m.labelCount {
                    lines.append(
                        "    labels: \(count) (" + m.firstLabels.joined(separator: ", ")
                            + (count > m.firstLabels.count ? ", …)" : ")"))
                }
            } else {
                lines.append("  metadata: none")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return out
    }
}
