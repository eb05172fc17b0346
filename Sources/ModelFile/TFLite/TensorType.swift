/// The element type of a TFLite tensor (`TensorType` in `schema.fbs`).
package struct TensorType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema value.
    package let rawValue: Int8

    /// Creates a type from its schema value.
    package init(rawValue: Int8) { self.rawValue = rawValue }

    package static let float32 = TensorType(rawValue: 0)
    package static let float16 = TensorType(rawValue: 1)
    package static let int32 = TensorType(rawValue: 2)
    package static let uint8 = TensorType(rawValue: 3)
    package static let int64 = TensorType(rawValue: 4)
    package static let string = TensorType(rawValue: 5)
    package static let bool = TensorType(rawValue: 6)
    package static let int16 = TensorType(rawValue: 7)
    package static let complex64 = TensorType(rawValue: 8)
    package static let int8 = TensorType(rawValue: 9)
    package static let float64 = TensorType(rawValue: 10)
    package static let complex128 = TensorType(rawValue: 11)
    package static let uint64 = TensorType(rawValue: 12)
    package static let resource = TensorType(rawValue: 13)
    package static let variant = TensorType(rawValue: 14)
    package static let uint32 = TensorType(rawValue: 15)
    package static let uint16 = TensorType(rawValue: 16)
    package static let int4 = TensorType(rawValue: 17)
    package static let bfloat16 = TensorType(rawValue: 18)

    private static let names = [
        "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8",
        "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4", "BFLOAT16",
    ]

    /// TFLite's spelling (`FLOAT32`), or `TYPE_<n>` for an unknown value.
    package var name: String {
        rawValue >= 0 && Int(rawValue) < TensorType.names.count ? TensorType.names[Int(rawValue)] : "TYPE_\(rawValue)"
    }

    package var description: String { name }

    /// Bytes per element for fixed-size types; `nil` for strings, resources, variants and 4-bit types.
    package var byteWidth: Int? {
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
