import Foundation

/// The facts ../shared/models/MODELS.md records for each model, read from its per-model sections
/// (`### bundle.task:member.tflite` or `### file.tflite`).
public struct ModelsDocument: Sendable {
    public struct ModelFacts: Sendable {
        public var label: String
        public var operatorCount: Int
        public var macs: Int
        public var parameters: Int
        public var operatorCounts: [String: Int]
        public var operatorVersions: [String: [Int]]
        /// (name, shape, dtype) of inputs then outputs, in table order.
        public var inputs: [(name: String, shape: [Int], dtype: String)]
        public var outputs: [(name: String, shape: [Int], dtype: String)]
        public var hasMetadata: Bool
    }

    public struct MemberLayout: Sendable {
        public var bundle: String
        public var member: String
        public var bytes: Int
        public var localHeader: Int
        public var dataOffset: Int
    }

    public var models: [String: ModelFacts] = [:]
    public var layouts: [MemberLayout] = []

    public init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var current: ModelFacts?
        func finish() { if let current { models[current.label] = current } }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.hasPrefix("### ") {
                finish()
                current = ModelFacts(
                    label: String(line.dropFirst(4)), operatorCount: 0, macs: 0, parameters: 0,
                    operatorCounts: [:], operatorVersions: [:], inputs: [], outputs: [], hasMetadata: false)
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if current == nil, cells.count >= 9, cells[1].hasSuffix(".task (starts `0000504b`)") {
                // Bundle layout table: | bundle | `member` | bytes | method | local header @ | data @ | ...
                layouts.append(
                    MemberLayout(
                        bundle: String(cells[1].split(separator: " ")[0]),
                        member: cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")),
                        bytes: Self.number(cells[3]) ?? -1, localHeader: Self.number(cells[5]) ?? -1,
                        dataOffset: Self.number(cells[6]) ?? -1))
                continue
            }
            guard var facts = current else { continue }
            if line.hasPrefix("- "), line.contains(" ops; ") {
                facts.operatorCount = Self.capture(line, #"; (\d+) ops;"#) ?? -1
                facts.macs = Self.capture(line, #"\*\*([\d,]+) MACs\*\*"#) ?? -1
                facts.parameters = Self.capture(line, #"parameters ([\d,]+)"#) ?? -1
            } else if line.hasPrefix("- metadata:") {
                facts.hasMetadata = line.contains("TFLite metadata")
            } else if cells.count >= 6, cells[1] == "input" || cells[1] == "output" {
                let name = cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                let shapeText = cells[3].split(separator: "(").first.map(String.init) ?? cells[3]
                let shape = shapeText.filter { "0123456789,".contains($0) }.split(separator: ",").compactMap { Int($0) }
                let tensor = (name: name, shape: shape, dtype: cells[4])
                if cells[1] == "input" { facts.inputs.append(tensor) } else { facts.outputs.append(tensor) }
            } else if cells.count >= 5, let count = Int(cells[2]), cells[3].hasPrefix("[") {
                facts.operatorCounts[cells[1]] = count
                facts.operatorVersions[cells[1]] = cells[3].filter { "0123456789,".contains($0) }
                    .split(separator: ",").compactMap { Int($0) }
            }
            current = facts
        }
        finish()
    }

    private static func number(_ text: String) -> Int? { Int(text.replacingOccurrences(of: ",", with: "")) }

    private static func capture(_ line: String, _ pattern: String) -> Int? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let range = Range(match.range(at: 1), in: line)
        else { return nil }
        return number(String(line[range]))
    }
}
