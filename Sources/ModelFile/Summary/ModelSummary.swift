/// Static facts about one model: what `vision-tasks inspect` prints.
///
/// MAC convention (as in ../shared/models/MODELS.md): CONV_2D = output elements × Kh × Kw × Cin,
/// DEPTHWISE_CONV_2D = output elements × Kh × Kw, FULLY_CONNECTED = output elements × input depth.
package struct ModelSummary: Sendable {
    /// A tensor as seen from outside the model.
    package struct TensorInfo: Sendable, Equatable {
        package var name: String
        package var shape: [Int]
        package var type: String
        /// Per-tensor or per-channel scales and zero points, when quantized.
        package var scale: [Float]
        package var zeroPoint: [Int64]
        package var quantizedDimension: Int
    }

    /// Metadata facts worth showing.
    package struct MetadataInfo: Sendable, Equatable {
        package var name: String?
        package var version: String?
        package var mean: [Float]?
        package var std: [Float]?
        /// Output tensor names recorded in the metadata, in metadata order.
        package var outputNames: [String]
        /// Associated files named in the metadata.
        package var associatedFiles: [String]
        /// Number of labels in the first label file, and the first few.
        package var labelCount: Int?
        package var firstLabels: [String]
    }

    package var inputs: [TensorInfo]
    package var outputs: [TensorInfo]
    /// Operator counts by TFLite name, in first-seen order.
    package var operatorCounts: [(name: String, count: Int)]
    package var operatorCount: Int
    /// Multiply-accumulates by operator name (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED).
    package var macsByOperator: [(name: String, macs: Int)]
    package var macs: Int
    /// Elements of constant float/int8/uint8 tensors and quantized int32 tensors.
    package var parameters: Int
    package var metadata: MetadataInfo?
    /// Other metadata entries (e.g. `reduced_precision_support`) with their text values.
    package var metadataEntries: [(name: String, value: String?)]
    /// Custom operators with their options, decoded where their format is known.
    package var customOperators: [(name: String, options: CustomOptionsSummary)]

    /// Summarises the main subgraph of `model`.
    package init(model: TFLiteModel) throws {
        let graph = model.mainSubgraph
        func info(_ index: Int32) -> TensorInfo {
            let tensor = graph.tensors[Int(index)]
            let q = tensor.quantization
            return TensorInfo(
                name: tensor.name, shape: tensor.shape.map(Int.init), type: tensor.type.name,
                scale: q?.scale ?? [], zeroPoint: q?.zeroPoint ?? [], quantizedDimension: q?.quantizedDimension ?? 0)
        }
        inputs = graph.inputs.map(info)
        outputs = graph.outputs.map(info)

        var custom: [(name: String, options: CustomOptionsSummary)] = []
        var counts: [(name: String, count: Int)] = []
        var macsByName: [(name: String, macs: Int)] = []
        func add(_ name: String, to list: inout [(name: String, count: Int)]) {
            if let i = list.firstIndex(where: { $0.name == name }) {
                list[i].count += 1
            } else {
                list.append((name, 1))
            }
        }
        for op in graph.operators {
            let name = model.operatorCodes[op.opcodeIndex].name
            add(name, to: &counts)
            if model.operatorCodes[op.opcodeIndex].builtinCode == .custom {
                let code = model.operatorCodes[op.opcodeIndex].customCode ?? name
                custom.append((name, CustomOptionsSummary(operator: code, options: op.customOptions)))
            }
            let macs = ModelSummary.macs(of: op, name: name, in: graph)
            if macs > 0 {
                if let i = macsByName.firstIndex(where: { $0.name == name }) {
                    macsByName[i].macs += macs
                } else {
                    macsByName.append((name, macs))
                }
            }
        }
        operatorCounts = counts
        customOperators = custom
        operatorCount = graph.operators.count
        macsByOperator = macsByName
        macs = macsByName.reduce(0) { $0 + $1.macs }

        var parameters = 0
        for tensor in graph.tensors where model.data(of: tensor) != nil {
            let quantized = tensor.quantization?.isQuantized ?? false
            if [.float16, .float32, .uint8, .int8].contains(tensor.type) || (tensor.type == .int32 && quantized) {
                parameters += tensor.elementCount
            }
        }
        self.parameters = parameters

        metadataEntries = model.metadataEntries
            .filter { $0.name != ModelMetadata.bufferName }
            .map { ($0.name, model.metadataString(named: $0.name)) }
        metadata = try ModelSummary.metadataInfo(model)
    }

    /// The multiply-accumulates of one operator by the convention above (0 for operators outside
    /// it); `name` is its operator code's ``OperatorCode/name``.
    package static func macs(of op: Operator, name: String, in graph: Subgraph) -> Int {
        guard op.inputs.count >= 2, op.inputs[1] >= 0, let output = op.outputs.first else { return 0 }
        let outputElements = graph.tensors[Int(output)].elementCount
        let weights = graph.tensors[Int(op.inputs[1])].shape.map(Int.init)
        switch name {
        case "CONV_2D" where weights.count == 4:
            return outputElements * weights[1] * weights[2] * weights[3]
        case "DEPTHWISE_CONV_2D" where weights.count == 4:
            return outputElements * weights[1] * weights[2]
        case "FULLY_CONNECTED" where weights.count == 2 && weights[0] > 0:
            return outputElements / weights[0] * weights[0] * weights[1]
        case "CUSTOM:" + TransposeConvolutionParameters.operatorName where weights.count == 4 && op.inputs[0] >= 0:
            // Every input element meets the kh × kw × cout weights of its channel.
            return graph.tensors[Int(op.inputs[0])].elementCount * weights[0] * weights[1] * weights[2]
        default:
            return 0
        }
    }

    private static func metadataInfo(_ model: TFLiteModel) throws -> MetadataInfo? {
        guard let metadata = try model.metadata() else { return nil }
        let normalization = metadata.inputTensors.lazy.compactMap(\.normalization).first
        let files = metadata.allAssociatedFiles
        var labelCount: Int?
        var firstLabels: [String] = []
        let labelFile = files.first { $0.type == .tensorAxisLabels } ?? files.first { $0.type == .tensorValueLabels }
        if let labelFile, let bytes = try? model.associatedFile(named: labelFile.name) {
            let labels = LabelFile.lines(bytes)
            labelCount = labels.count
            firstLabels = Array(labels.prefix(5))
        }
        return MetadataInfo(
            name: metadata.name, version: metadata.version, mean: normalization?.mean, std: normalization?.std,
            outputNames: metadata.outputTensors.map { $0.name ?? "" },
            associatedFiles: files.map(\.name), labelCount: labelCount, firstLabels: firstLabels)
    }
}

/// Label files packed with models: one label per line.
package enum LabelFile {
    /// The lines of a label file, without line terminators; a final empty line is dropped.
    package static func lines(_ bytes: ByteRange) -> [String] {
        let text = String(decoding: bytes.bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
