/// The element type of a TFLite tensor (`TensorType` in `schema.fbs`).
public struct TensorType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema value.
    public let rawValue: Int8

    /// Creates a type from its schema value.
    public init(rawValue: Int8) { self.rawValue = rawValue }

    public static let float32 = TensorType(rawValue: 0)
    public static let float16 = TensorType(rawValue: 1)
    public static let int32 = TensorType(rawValue: 2)
    public static let uint8 = TensorType(rawValue: 3)
    public static let int64 = TensorType(rawValue: 4)
    public static let string = TensorType(rawValue: 5)
    public static let bool = TensorType(rawValue: 6)
    public static let int16 = TensorType(rawValue: 7)
    public static let complex64 = TensorType(rawValue: 8)
    public static let int8 = TensorType(rawValue: 9)
    public static let float64 = TensorType(rawValue: 10)
    public static let complex128 = TensorType(rawValue: 11)
    public static let uint64 = TensorType(rawValue: 12)
    public static let resource = TensorType(rawValue: 13)
    public static let variant = TensorType(rawValue: 14)
    public static let uint32 = TensorType(rawValue: 15)
    public static let uint16 = TensorType(rawValue: 16)
    public static let int4 = TensorType(rawValue: 17)
    public static let bfloat16 = TensorType(rawValue: 18)

    private static let names = [
        "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8",
        "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4", "BFLOAT16",
    ]

    /// TFLite's spelling (`FLOAT32`), or `TYPE_<n>` for an unknown value.
    public var name: String {
        rawValue >= 0 && Int(rawValue) < TensorType.names.count ? TensorType.names[Int(rawValue)] : "TYPE_\(rawValue)"
    }

    public var description: String { name }

    /// Bytes per element for fixed-size types; `nil` for strings, resources, variants and 4-bit types.
    public var byteWidth: Int? {
        switch self {
        case .float32, .int32, .uint32: return 4
        case .float16, .int16, .uint16, .bfloat16: return 2
        case .uint8, .int8, .bool: return 1
        case .int64, .float64, .uint64, .complex64: return 8
        case .complex128: return 16
        default: return nil
        }
    }
}
