/// Quantization parameters of a tensor (`QuantizationParameters` in `schema.fbs`).
public struct QuantizationParameters: Sendable, Equatable {
    public var min: [Float]
    public var max: [Float]
    public var scale: [Float]
    public var zeroPoint: [Int64]
    /// The axis along which `scale` and `zeroPoint` vary (per-channel quantization).
    public var quantizedDimension: Int
    /// Whether the table carries a custom `details` union, which this library does not interpret.
    public var hasCustomDetails: Bool

    /// Whether the parameters actually describe a quantization (at least one scale).
    public var isQuantized: Bool { !scale.isEmpty }
}

/// One dimension of a sparse tensor's storage (`DimensionMetadata` in `schema.fbs`).
public struct DimensionMetadata: Sendable, Equatable {
    /// Storage format of one dimension.
    public enum Format: Int8, Sendable {
        case dense = 0
        case sparseCSR = 1
    }
    public var format: Format
    /// Size of a dense dimension.
    public var denseSize: Int
    /// CSR segment boundaries (sparse dimensions).
    public var arraySegments: [Int32]
    /// CSR indices (sparse dimensions).
    public var arrayIndices: [Int32]
}

/// Sparse storage description of a constant tensor (`SparsityParameters` in `schema.fbs`).
public struct SparsityParameters: Sendable, Equatable {
    public var traversalOrder: [Int32]
    public var blockMap: [Int32]
    public var dimensionMetadata: [DimensionMetadata]
}

/// A tensor of a subgraph (`Tensor` in `schema.fbs`).
public struct Tensor: Sendable {
    public var name: String
    public var shape: [Int32]
    /// The shape with `-1` for dynamic dimensions, when the model records it.
    public var shapeSignature: [Int32]?
    public var type: TensorType
    /// Index into ``TFLiteModel/buffers``; buffer 0 is the empty sentinel.
    public var buffer: Int
    public var quantization: QuantizationParameters?
    public var isVariable: Bool
    public var sparsity: SparsityParameters?

    /// Number of elements (product of the shape; 1 for a scalar).
    public var elementCount: Int {
        shape.reduce(1) { $0 * Int($1) }
    }
}

/// An operator of a subgraph (`Operator` in `schema.fbs`).
public struct Operator: Sendable {
    /// Index into ``TFLiteModel/operatorCodes``.
    public var opcodeIndex: Int
    /// Tensor indices; `-1` marks an omitted optional input.
    public var inputs: [Int32]
    public var outputs: [Int32]
    public var intermediates: [Int32]
    public var builtinOptions: BuiltinOptions
    /// Raw `custom_options` bytes (a flexbuffer for most custom ops), zero-copy.
    public var customOptions: ByteRange?
}

/// An operator code entry (`OperatorCode` in `schema.fbs`).
public struct OperatorCode: Sendable {
    /// The effective builtin code: the larger of `builtin_code` and the deprecated byte field.
    public var builtinCode: BuiltinOperator
    public var customCode: String?
    public var version: Int

    /// TFLite's name for the operator: `CONV_2D`, or `CUSTOM:<name>` for custom operators.
    public var name: String {
        if builtinCode == .custom { return "CUSTOM:" + (customCode ?? "") }
        return builtinCode.name
    }
}

/// A subgraph (`SubGraph` in `schema.fbs`).
public struct Subgraph: Sendable {
    public var name: String?
    public var tensors: [Tensor]
    public var inputs: [Int32]
    public var outputs: [Int32]
    public var operators: [Operator]
}

/// A named metadata entry of the model (`Metadata` in `schema.fbs`).
public struct ModelMetadataEntry: Sendable, Equatable {
    public var name: String
    public var buffer: Int
}
