/// A TFLite builtin operator code (`BuiltinOperator` in TFLite's `schema.fbs`).
///
/// Stored as its raw schema value so that codes newer than this table still parse;
/// ``name`` spells known codes exactly as TFLite does (`CONV_2D`).
package struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema value.
    package let rawValue: Int32

    /// Creates a code from its schema value.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// TFLite's spelling of the code, or `BUILTIN_<n>` for a code this table does not name.
    package var name: String {
        if rawValue >= 0, Int(rawValue) < BuiltinOperator.names.count {
            return BuiltinOperator.names[Int(rawValue)]
        }
        return "BUILTIN_\(rawValue)"
    }

    package var description: String { name }

    /// Operator names indexed by schema value
    /// (tensorflow/compiler/mlir/lite/schema/schema.fbs, `enum BuiltinOperator`).
    static let names: [String] = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
        "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION",
        "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D",
        "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR",
        "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS",
        "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN",
        "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB",
        "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP",
        "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST",
        "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG",
        "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE",
        "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
        "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE",
        "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK",
        "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN",
        "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD",
        "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS",
        "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND",
        "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG",
        "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
        "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM",
        "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D",
        "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND",
        "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE",
        "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL",
        "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
        "UNSORTED_SEGMENT_SUM",
        "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
    ]

    /// `ADD`
    package static let add = BuiltinOperator(rawValue: 0)
    /// `AVERAGE_POOL_2D`
    package static let averagePool2D = BuiltinOperator(rawValue: 1)
    /// `CONCATENATION`
    package static let concatenation = BuiltinOperator(rawValue: 2)
    /// `CONV_2D`
    package static let conv2D = BuiltinOperator(rawValue: 3)
    /// `DEPTHWISE_CONV_2D`
    package static let depthwiseConv2D = BuiltinOperator(rawValue: 4)
    /// `DEPTH_TO_SPACE`
    package static let depthToSpace = BuiltinOperator(rawValue: 5)
    /// `DEQUANTIZE`
    package static let dequantize = BuiltinOperator(rawValue: 6)
    /// `FULLY_CONNECTED`
    package static let fullyConnected = BuiltinOperator(rawValue: 9)
    /// `LOGISTIC`
    package static let logistic = BuiltinOperator(rawValue: 14)
    /// `MAX_POOL_2D`
    package static let maxPool2D = BuiltinOperator(rawValue: 17)
    /// `MUL`
    package static let mul = BuiltinOperator(rawValue: 18)
    /// `RELU`
    package static let relu = BuiltinOperator(rawValue: 19)
    /// `RELU6`
    package static let relu6 = BuiltinOperator(rawValue: 21)
    /// `RESHAPE`
    package static let reshape = BuiltinOperator(rawValue: 22)
    /// `RESIZE_BILINEAR`
    package static let resizeBilinear = BuiltinOperator(rawValue: 23)
    /// `SOFTMAX`
    package static let softmax = BuiltinOperator(rawValue: 25)
    /// `TANH`
    package static let tanh = BuiltinOperator(rawValue: 28)
    /// `CUSTOM`
    package static let custom = BuiltinOperator(rawValue: 32)
    /// `PAD`
    package static let pad = BuiltinOperator(rawValue: 34)
    /// `GATHER`
    package static let gather = BuiltinOperator(rawValue: 36)
    /// `TRANSPOSE`
    package static let transpose = BuiltinOperator(rawValue: 39)
    /// `MEAN`
    package static let mean = BuiltinOperator(rawValue: 40)
    /// `SUB`
    package static let sub = BuiltinOperator(rawValue: 41)
    /// `DIV`
    package static let div = BuiltinOperator(rawValue: 42)
    /// `SQUEEZE`
    package static let squeeze = BuiltinOperator(rawValue: 43)
    /// `STRIDED_SLICE`
    package static let stridedSlice = BuiltinOperator(rawValue: 45)
    /// `EXP`
    package static let exp = BuiltinOperator(rawValue: 47)
    /// `SPLIT`
    package static let split = BuiltinOperator(rawValue: 49)
    /// `CAST`
    package static let cast = BuiltinOperator(rawValue: 53)
    /// `PRELU`
    package static let prelu = BuiltinOperator(rawValue: 54)
    /// `MAXIMUM`
    package static let maximum = BuiltinOperator(rawValue: 55)
    /// `MINIMUM`
    package static let minimum = BuiltinOperator(rawValue: 57)
    /// `PADV2`
    package static let padV2 = BuiltinOperator(rawValue: 60)
    /// `SLICE`
    package static let slice = BuiltinOperator(rawValue: 65)
    /// `RESIZE_NEAREST_NEIGHBOR`
    package static let resizeNearestNeighbor = BuiltinOperator(rawValue: 97)
    /// `LEAKY_RELU`
    package static let leakyRelu = BuiltinOperator(rawValue: 98)
    /// `QUANTIZE`
    package static let quantize = BuiltinOperator(rawValue: 114)
    /// `HARD_SWISH`
    package static let hardSwish = BuiltinOperator(rawValue: 117)
    /// `DENSIFY`
    package static let densify = BuiltinOperator(rawValue: 124)
}
