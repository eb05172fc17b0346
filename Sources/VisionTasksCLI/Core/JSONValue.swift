/// A JSON value whose objects keep their keys in insertion order, so that the CLI prints
/// fields in the order the contract lists them.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Float)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Compact JSON text (one line).
    package func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .float(let value):
            // Float's description is the shortest text that reads back as the same Float.
            out += value.isFinite ? JSONValue.trimmed(value.description) : "null"
        case .double(let value):
            out += value.isFinite ? JSONValue.trimmed(value.description) : "null"
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// `1.0` → `1`; keeps exponents (`1e-05`) valid JSON.
    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// `.string` or `.null`.
    package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    /// An array of floats.
    package static func floats(_ values: [Float]) -> JSONValue { .array(values.map(JSONValue.float)) }
    /// An array of integers.
    package static func ints(_ values: [Int]) -> JSONValue { .array(values.map(JSONValue.int)) }
}
