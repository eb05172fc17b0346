/// Quantization parameters of a tensor (`QuantizationParameters` in `schema.fbs`).
package struct QuantizationParameters: Sendable, Equatable {
    package var min: [Float]
    package var max: [Float]
    package var scale: [Float]
    package var zeroPoint: [Int64]
    /// The axis along which `scale` and `zeroPoint` vary (per-channel quantization).
    package var quantizedDimension: Int
    /// Whether the table carries a custom `details` union, which this library does not interpret.
    package var hasCustomDetails: Bool

    /// Whether the parameters actually describe a quantization (at least one scale).
    package var isQuantized: Bool { !scale.isEmpty }
}

/// One dimension of a sparse tensor's storage (`DimensionMetadata` in `schema.fbs`).
package struct DimensionMetadata: Sendable, Equatable {
    /// Storage format of one dimension.
    package enum Format: Int8, Sendable {
        case dense = 0
        case sparseCSR = 1
    }
    package var format: Format
    /// Size of a dense dimension.
    package var denseSize: Int
    /// CSR segment boundaries (sparse dimensions).
    package var arraySegments: [Int32]
    /// CSR indices (sparse dimensions).
    package var arrayIndices: [Int32]
}

/// Sparse storage description of a constant tensor (`SparsityParameters` in `schema.fbs`).
package struct SparsityParameters: Sendable, Equatable {
    package var traversalOrder: [Int32]
    package var blockMap: [Int32]
    package var dimensionMetadata: [DimensionMetadata]
}

/// A tensor of a subgraph (`Tensor` in `schema.fbs`).
package struct Tensor: Sendable {
    package var name: String
    package var shape: [Int32]
    /// The shape with `-1` for dynamic dimensions, when the model records it.
    package var shapeSignature: [Int32]?
    package var type: TensorType
    /// Index into ``TFLiteModel/buffers``; buffer 0 is the empty sentinel.
    package var buffer: Int
    package var quantization: QuantizationParameters?
    package var isVariable: Bool
    package var sparsity: SparsityParameters?

    /// Number of elements (product of the shape; 1 for a scalar).
    package var elementCount: Int {
        shape.reduce(1) { $0 * Int($1) }
    }
}

/// An operator of a subgraph (`Operator` in `schema.fbs`).
package struct Operator: Sendable {
    /// Index into ``TFLiteModel/operatorCodes``.
    package var opcodeIndex: Int
    /// Tensor indices; `-1` marks an omitted optional input.
    package var inputs: [Int32]
    package var outputs: [Int32]
    package var intermediates: [Int32]
    package var builtinOptions: BuiltinOptions
    /// Raw `custom_options` bytes (a flexbuffer for most custom ops), zero-copy.
    package var customOptions: ByteRange?
}

/// An operator code entry (`OperatorCode` in `schema.fbs`).
package struct OperatorCode: Sendable {
    /// The effective builtin code: the larger of `builtin_code` and the deprecated byte field.
    package var builtinCode: BuiltinOperator
    package var customCode: String?
    package var version: Int

    /// TFLite's name for the operator: `CONV_2D`, or `CUSTOM:<name>` for custom operators.
    package var name: String {
        if builtinCode == .custom { return "CUSTOM:" + (customCode ?? "") }
        return builtinCode.name
    }
}

/// A subgraph (`SubGraph` in `schema.fbs`).
package struct Subgraph: Sendable {
    package var name: String?
    package var tensors: [Tensor]
    package var inputs: [Int32]
    package var outputs: [Int32]
    package var operators: [Operator]
}

/// A named metadata entry of the model (`Metadata` in `schema.fbs`).
package struct ModelMetadataEntry: Sendable, Equatable {
    package var name: String
    package var buffer: Int
}
