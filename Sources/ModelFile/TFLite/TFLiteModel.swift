/// A parsed TFLite model: the `Model` table of TFLite's `schema.fbs`, validated.
///
/// Parsing checks every offset and length and every cross reference (operator codes,
/// tensor indices, buffer indices), so code that consumes a `TFLiteModel` can index with
/// the values it holds. Constant data stays in the file's bytes: ``bufferData(_:)`` returns
/// zero-copy ranges.
package struct TFLiteModel: Sendable {
    /// The flatbuffer file identifier of TFLite models.
    package static let fileIdentifier = "TFL3"

    /// The model's bytes.
    package let bytes: ByteRange
    /// Schema version (3 for current models).
    package let version: Int
    package let description: String?
    package let operatorCodes: [OperatorCode]
    package let subgraphs: [Subgraph]
    /// Constant data per buffer index (`nil` for empty buffers, including the sentinel buffer 0).
    package let buffers: [ByteRange?]
    /// Named metadata entries (`TFLITE_METADATA`, `min_runtime_version`, …).
    package let metadataEntries: [ModelMetadataEntry]

    /// Maps and parses the model file at `path`.
    package init(contentsOfFile path: String) throws {
        try self.init(bytes: ByteStorage(mappingFileAt: path).all)
    }

    /// Parses a model from bytes (for example a member of a `.task` bundle).
    package init(bytes: ByteRange) throws {
        self.bytes = bytes
        let buffer = FlatBuffer(bytes)
        // Older converters wrote no identifier; accept those, reject any other identifier.
        let identifier = buffer.fileIdentifier
        let root: FlatTable
        if identifier == TFLiteModel.fileIdentifier {
            root = try buffer.rootTable(identifier: TFLiteModel.fileIdentifier)
        } else if let identifier, identifier.utf8.allSatisfy({ $0 == 0 }) {
            root = try buffer.rootTable()
        } else {
            throw ModelFileError.wrongIdentifier(expected: TFLiteModel.fileIdentifier, found: identifier ?? "")
        }

        version = Int(try root.integer(0, default: UInt32(0), "model version"))
        description = try root.string(3, "model description")

        operatorCodes = try root.tables(1, "operator_codes").enumerated().map { index, table in
            let deprecated = Int32(
                try table.integer(0, default: Int8(0), "operator_codes[\(index)].deprecated_builtin_code"))
            let builtin = try table.integer(3, default: Int32(0), "operator_codes[\(index)].builtin_code")
            return OperatorCode(
                builtinCode: BuiltinOperator(rawValue: Swift.max(deprecated, builtin)),
                customCode: try table.string(1, "operator_codes[\(index)].custom_code"),
                version: Int(try table.integer(2, default: Int32(1), "operator_codes[\(index)].version")))
        }

        buffers = try root.tables(4, "buffers").enumerated().map { index, table in
            try TFLiteModel.bufferData(table, index: index, model: bytes)
        }

        metadataEntries = try root.tables(6, "metadata").enumerated().map { index, table in
            ModelMetadataEntry(
                name: try table.string(0, "metadata[\(index)].name") ?? "",
                buffer: Int(try table.integer(1, default: UInt32(0), "metadata[\(index)].buffer")))
        }

        let subgraphTables = try root.tables(2, "subgraphs")
        guard !subgraphTables.isEmpty else {
            throw ModelFileError.malformed("the model has no subgraph")
        }
        subgraphs = try subgraphTables.enumerated().map { index, table in
            try SubgraphReader(table: table, index: index, model: bytes).read()
        }

        try validate()
    }

    private static func bufferData(_ table: FlatTable, index: Int, model: ByteRange) throws -> ByteRange? {
        let offset = try table.integer(1, default: UInt64(0), "buffers[\(index)].offset")
        if offset > 1 {
            // Data stored after the flatbuffer, addressed from the start of the model.
            let size = try table.integer(2, default: UInt64(0), "buffers[\(index)].size")
            guard offset <= UInt64(Int.max), size <= UInt64(Int.max) else {
                throw ModelFileError.outOfBounds(
                    what: "buffers[\(index)]", offset: Int.max, length: 0, size: model.count)
            }
            return try model.slice(offset: Int(offset), count: Int(size), what: "buffers[\(index)] data")
        }
        guard let data = try table.bytes(0, "buffers[\(index)].data"), data.count > 0 else { return nil }
        return data
    }

    /// Checks every cross reference so that consumers can index without further checks.
    private func validate() throws {
        for code in operatorCodes where code.version < 1 {
            throw ModelFileError.malformed("operator code \(code.name) has version \(code.version)")
        }
        for entry in metadataEntries where entry.buffer >= buffers.count {
            throw ModelFileError.malformed(
                "metadata '\(entry.name)' refers to buffer \(entry.buffer) of \(buffers.count)")
        }
        for (s, subgraph) in subgraphs.enumerated() {
            let tensorCount = subgraph.tensors.count
            func check(_ indices: [Int32], optional: Bool, _ what: String) throws {
                for index in indices where !(index >= 0 && Int(index) < tensorCount) && !(optional && index == -1) {
                    throw ModelFileError.malformed("subgraph \(s): \(what) refers to tensor \(index) of \(tensorCount)")
                }
            }
            try check(subgraph.inputs, optional: false, "inputs")
            try check(subgraph.outputs, optional: false, "outputs")
            for (t, tensor) in subgraph.tensors.enumerated() {
                guard tensor.buffer < buffers.count else {
                    throw ModelFileError.malformed(
                        "subgraph \(s) tensor \(t) ('\(tensor.name)') refers to buffer \(tensor.buffer) of "
                            + "\(buffers.count)"
                    )
                }
                for dimension in tensor.shape where dimension < 0 {
                    throw ModelFileError.malformed(
                        "subgraph \(s) tensor \(t) ('\(tensor.name)') has negative dimension \(dimension)")
                }
                // Dimensions must multiply without overflow (each fits in Int32, rank is bounded).
                var product = 1
                for dimension in tensor.shape {
                    let (next, overflow) = product.multipliedReportingOverflow(by: Int(dimension))
                    guard !overflow, next <= Int(Int32.max) * 64 else {
                        throw ModelFileError.malformed(
                            "subgraph \(s) tensor \(t) ('\(tensor.name)') has too many elements")
                    }
                    product = next
                }
            }
            for (o, op) in subgraph.operators.enumerated() {
                guard op.opcodeIndex < operatorCodes.count else {
                    throw ModelFileError.malformed(
                        "subgraph \(s) operator \(o) refers to operator code \(op.opcodeIndex) of "
                            + "\(operatorCodes.count)"
                    )
                }
                try check(op.inputs, optional: true, "operator \(o) inputs")
                try check(op.outputs, optional: false, "operator \(o) outputs")
                try check(op.intermediates, optional: false, "operator \(o) intermediates")
            }
        }
    }

    /// The constant bytes of `tensor`, zero-copy, or `nil` when it has none.
    package func data(of tensor: Tensor) -> ByteRange? {
        buffers[tensor.buffer]
    }

    /// The bytes of the buffer named by metadata entry `name`, if present.
    package func metadataBuffer(named name: String) -> ByteRange? {
        guard let entry = metadataEntries.first(where: { $0.name == name }) else { return nil }
        return buffers[entry.buffer]
    }

    /// The main subgraph (index 0), which TFLite runs.
    package var mainSubgraph: Subgraph { subgraphs[0] }
}

/// Reads one `SubGraph` table.
private struct SubgraphReader {
    let table: FlatTable
    let index: Int
    let model: ByteRange

    func read() throws -> Subgraph {
        let tag = "subgraphs[\(index)]"
        let tensors = try table.tables(0, "\(tag).tensors").enumerated().map { t, tensorTable in
            try readTensor(tensorTable, tag: "\(tag).tensors[\(t)]")
        }
        let operators = try table.tables(3, "\(tag).operators").enumerated().map { o, opTable in
            try readOperator(opTable, tag: "\(tag).operators[\(o)]")
        }
        return Subgraph(
            name: try table.string(4, "\(tag).name"),
            tensors: tensors,
            inputs: try table.integers(1, as: Int32.self, "\(tag).inputs") ?? [],
            outputs: try table.integers(2, as: Int32.self, "\(tag).outputs") ?? [],
            operators: operators)
    }

    private func readTensor(_ t: FlatTable, tag: String) throws -> Tensor {
        var quantization: QuantizationParameters?
        if let q = try t.table(4, "\(tag).quantization") {
            quantization = QuantizationParameters(
                min: try q.floats(0, "\(tag).quantization.min") ?? [],
                max: try q.floats(1, "\(tag).quantization.max") ?? [],
                scale: try q.floats(2, "\(tag).quantization.scale") ?? [],
                zeroPoint: try q.integers(3, as: Int64.self, "\(tag).quantization.zero_point") ?? [],
                quantizedDimension: Int(try q.integer(6, default: Int32(0), "\(tag).quantization.quantized_dimension")),
                hasCustomDetails: try q.integer(4, default: UInt8(0), "\(tag).quantization.details_type") != 0)
        }
        var sparsity: SparsityParameters?
        if let s = try t.table(6, "\(tag).sparsity") {
            sparsity = SparsityParameters(
                traversalOrder: try s.integers(0, as: Int32.self, "\(tag).sparsity.traversal_order") ?? [],
                blockMap: try s.integers(1, as: Int32.self, "\(tag).sparsity.block_map") ?? [],
                dimensionMetadata: try s.tables(2, "\(tag).sparsity.dim_metadata").enumerated().map { d, dim in
                    try readDimension(dim, tag: "\(tag).sparsity.dim_metadata[\(d)]")
                })
        }
        let rawType = try t.integer(1, default: Int8(0), "\(tag).type")
        let buffer = try t.integer(2, default: UInt32(0), "\(tag).buffer")
        return Tensor(
            name: try t.string(3, "\(tag).name") ?? "",
            shape: try t.integers(0, as: Int32.self, "\(tag).shape") ?? [],
            shapeSignature: try t.integers(7, as: Int32.self, "\(tag).shape_signature"),
            type: TensorType(rawValue: rawType),
            buffer: Int(buffer),
            quantization: quantization,
            isVariable: try t.bool(5, default: false, "\(tag).is_variable"),
            sparsity: sparsity)
    }

    private func readDimension(_ d: FlatTable, tag: String) throws -> DimensionMetadata {
        let rawFormat = try d.integer(0, default: Int8(0), "\(tag).format")
        guard let format = DimensionMetadata.Format(rawValue: rawFormat) else {
            throw ModelFileError.malformed("\(tag) has unknown format \(rawFormat)")
        }
        return DimensionMetadata(
            format: format,
            denseSize: Int(try d.integer(1, default: Int32(0), "\(tag).dense_size")),
            arraySegments: try readIndexVector(d, typeField: 2, tag: "\(tag).array_segments"),
            arrayIndices: try readIndexVector(d, typeField: 4, tag: "\(tag).array_indices"))
    }

    /// Reads a `SparseIndexVector` union (Int32Vector = 1, Uint16Vector = 2, Uint8Vector = 3).
    private func readIndexVector(_ d: FlatTable, typeField: Int, tag: String) throws -> [Int32] {
        let type = try d.integer(typeField, default: UInt8(0), "\(tag) type")
        guard type != 0 else { return [] }
        guard let vector = try d.table(typeField + 1, tag) else {
            throw ModelFileError.malformed("\(tag) has union type \(type) but no value")
        }
        switch type {
        case 1: return try vector.integers(0, as: Int32.self, tag) ?? []
        case 2: return (try vector.integers(0, as: UInt16.self, tag) ?? []).map { Int32($0) }
        case 3: return (try vector.integers(0, as: UInt8.self, tag) ?? []).map { Int32($0) }
        default: throw ModelFileError.malformed("\(tag) has unknown union type \(type)")
        }
    }

    private func readOperator(_ o: FlatTable, tag: String) throws -> Operator {
        var customOptions = try o.bytes(5, "\(tag).custom_options")
        let largeOffset = try o.integer(9, default: UInt64(0), "\(tag).large_custom_options_offset")
        if largeOffset > 1 {
            let size = try o.integer(10, default: UInt64(0), "\(tag).large_custom_options_size")
            guard largeOffset <= UInt64(Int.max), size <= UInt64(Int.max) else {
                throw ModelFileError.outOfBounds(
                    what: "\(tag).large_custom_options", offset: Int.max, length: 0, size: model.count)
            }
            customOptions = try model.slice(
                offset: Int(largeOffset), count: Int(size), what: "\(tag).large_custom_options")
        }
        return Operator(
            opcodeIndex: Int(try o.integer(0, default: UInt32(0), "\(tag).opcode_index")),
            inputs: try o.integers(1, as: Int32.self, "\(tag).inputs") ?? [],
            outputs: try o.integers(2, as: Int32.self, "\(tag).outputs") ?? [],
            intermediates: try o.integers(8, as: Int32.self, "\(tag).intermediates") ?? [],
            builtinOptions: try BuiltinOptionsReader.read(o, tag: tag),
            customOptions: customOptions)
    }
}
