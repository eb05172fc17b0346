/// A decoded FlexBuffer value: the schemaless format of TFLite custom operator options.
///
/// Decoding is bounds-checked and depth-limited; a malformed buffer gives a
/// ``ModelFileError``. Format facts: google/flatbuffers `docs/source/flexbuffers.md` and
/// `include/flatbuffers/flexbuffers.h` (type codes, packed type byte, backward offsets, map layout).
package enum FlexValue: Sendable, Equatable {
    case null
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case blob([UInt8])
    case vector([FlexValue])
    /// Keys in stored (sorted) order.
    case map([(String, FlexValue)])

    package static func == (lhs: FlexValue, rhs: FlexValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.int(let a), .int(let b)): return a == b
        case (.uint(let a), .uint(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.blob(let a), .blob(let b)): return a == b
        case (.vector(let a), .vector(let b)): return a == b
        case (.map(let a), .map(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// Decodes the root value of a FlexBuffer.
    package init(bytes: ByteRange) throws {
        self = try FlexReader(bytes: bytes.bytes).root()
    }

    /// The value for `key` when this is a map.
    package subscript(key: String) -> FlexValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    /// The value as a floating-point number, converting integers and booleans.
    package var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// The value as an integer, converting exact floating-point values and booleans.
    package var intValue: Int? {
        switch self {
        case .int(let value): return Int(exactly: value)
        case .uint(let value): return Int(exactly: value)
        case .bool(let value): return value ? 1 : 0
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The value as a boolean (non-zero numbers are true).
    package var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .uint(let value): return value != 0
        default: return nil
        }
    }
}

/// Reads FlexBuffer values with bounds checks.
private struct FlexReader {
    let bytes: UnsafeRawBufferPointer
    static let maximumDepth = 32

    // Type codes (flexbuffers.h, enum Type).
    private enum Code {
        static let null = 0, int = 1, uint = 2, float = 3, key = 4, string = 5
        static let indirectInt = 6, indirectUInt = 7, indirectFloat = 8, map = 9, vector = 10
        static let vectorInt = 11, vectorUInt = 12, vectorFloat = 13, vectorKey = 14
        static let vectorString = 15, vectorInt2 = 16, vectorFloat4 = 24, blob = 25, bool = 26, vectorBool = 36
    }

    private func fail(_ message: String) -> ModelFileError { .malformed("flexbuffer: \(message)") }

    private func checkRange(_ position: Int, _ width: Int) throws {
        guard position >= 0, width >= 0, position <= bytes.count - width else {
            throw ModelFileError.outOfBounds(
                what: "flexbuffer value", offset: position, length: width, size: bytes.count)
        }
    }

    private func readUInt(_ position: Int, width: Int) throws -> UInt64 {
        try checkRange(position, width)
        switch width {
        case 1: return UInt64(bytes[position])
        case 2: return UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
        case 8: return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        default: throw fail("invalid byte width \(width)")
        }
    }

    private func readInt(_ position: Int, width: Int) throws -> Int64 {
        let raw = try readUInt(position, width: width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << shift) >> Int64(shift)  // sign-extend
    }

    private func readFloat(_ position: Int, width: Int) throws -> Double {
        let raw = try readUInt(position, width: width)
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(raw)))
        case 8: return Double(bitPattern: raw)
        default: throw fail("invalid float width \(width)")
        }
    }

    /// Follows a backward offset stored at `position`.
    private func indirect(_ position: Int, width: Int) throws -> Int {
        let offset = try readUInt(position, width: width)
        guard offset <= UInt64(position) else { throw fail("offset \(offset) at \(position) points before the buffer") }
        return position - Int(offset)
    }

    func root() throws -> FlexValue {
        guard bytes.count >= 3 else { throw fail("buffer of \(bytes.count) bytes is too short") }
        let rootWidth = Int(bytes[bytes.count - 1])
        let packed = bytes[bytes.count - 2]
        guard [1, 2, 4, 8].contains(rootWidth), bytes.count - 2 - rootWidth >= 0 else {
            throw fail("invalid root byte width \(rootWidth)")
        }
        return try value(at: bytes.count - 2 - rootWidth, parentWidth: rootWidth, packed: packed, depth: 0)
    }

    private func value(at position: Int, parentWidth: Int, packed: UInt8, depth: Int) throws -> FlexValue {
        guard depth < FlexReader.maximumDepth else { throw fail("nesting deeper than \(FlexReader.maximumDepth)") }
        let type = Int(packed >> 2)
        let childWidth = 1 << Int(packed & 3)
        switch type {
        case Code.null: return .null
        case Code.int: return .int(try readInt(position, width: parentWidth))
        case Code.uint: return .uint(try readUInt(position, width: parentWidth))
        case Code.float: return .double(try readFloat(position, width: parentWidth))
        case Code.bool: return .bool(try readUInt(position, width: parentWidth) != 0)
        case Code.indirectInt: return .int(try readInt(try indirect(position, width: parentWidth), width: childWidth))
        case Code.indirectUInt:
            return .uint(try readUInt(try indirect(position, width: parentWidth), width: childWidth))
        case Code.indirectFloat:
            return .double(try readFloat(try indirect(position, width: parentWidth), width: childWidth))
        case Code.key: return .string(try cString(at: try indirect(position, width: parentWidth)))
        case Code.string, Code.blob:
            let start = try indirect(position, width: parentWidth)
            let count = try length(before: start, width: childWidth)
            try checkRange(start, count)
            let content = Array(bytes[start..<(start + count)])
            return type == Code.string ? .string(String(decoding: content, as: UTF8.self)) : .blob(content)
        case Code.map:
            return try map(at: try indirect(position, width: parentWidth), width: childWidth, depth: depth)
        case Code.vector:
            let start = try indirect(position, width: parentWidth)
            return .vector(try untypedVector(at: start, width: childWidth, depth: depth))
        case Code.vectorInt...Code.vectorKey, Code.vectorString, Code.vectorBool:
            let start = try indirect(position, width: parentWidth)
            let count = try length(before: start, width: childWidth)
            let elementType = type == Code.vectorBool ? Code.bool : type - Code.vectorInt + Code.int
            return .vector(
                try typedElements(at: start, count: count, width: childWidth, elementType: elementType, depth: depth))
        case Code.vectorInt2...Code.vectorFloat4:
            let start = try indirect(position, width: parentWidth)
            let fixed = (type - Code.vectorInt2) / 3 + 2
            let elementType = (type - Code.vectorInt2) % 3 + Code.int
            return .vector(
                try typedElements(at: start, count: fixed, width: childWidth, elementType: elementType, depth: depth))
        default:
            throw fail("unknown type \(type)")
        }
    }

    private func length(before start: Int, width: Int) throws -> Int {
        let count = try readUInt(start - width, width: width)
        guard count <= UInt64(bytes.count) else { throw fail("length \(count) exceeds the buffer") }
        return Int(count)
    }

    private func cString(at start: Int) throws -> String {
        try checkRange(start, 0)
        guard let end = bytes[start...].firstIndex(of: 0) else { throw fail("unterminated key") }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func typedElements(at start: Int, count: Int, width: Int, elementType: Int, depth: Int) throws
        -> [FlexValue]
    {
        guard count <= bytes.count / Swift.max(width, 1) else {
            throw fail("vector of \(count) elements exceeds the buffer")
        }
        try checkRange(start, count * width)
        let packed = UInt8(elementType << 2)  // width of scalars comes from the vector
        return try (0..<count).map {
            try value(at: start + $0 * width, parentWidth: width, packed: packed, depth: depth + 1)
        }
    }

    private func untypedVector(at start: Int, width: Int, depth: Int) throws -> [FlexValue] {
        let count = try length(before: start, width: width)
        guard count <= bytes.count / Swift.max(width, 1) else {
            throw fail("vector of \(count) elements exceeds the buffer")
        }
        let typesStart = start + count * width
        try checkRange(typesStart, count)
        return try (0..<count).map { index in
            try value(
                at: start + index * width, parentWidth: width, packed: bytes[typesStart + index], depth: depth + 1)
        }
    }

    private func map(at start: Int, width: Int, depth: Int) throws -> FlexValue {
        let values = try untypedVector(at: start, width: width, depth: depth)
        let keysStart = try indirect(start - 3 * width, width: width)
        let keysWidth = Int(try readUInt(start - 2 * width, width: width))
        guard [1, 2, 4, 8].contains(keysWidth) else { throw fail("invalid key width \(keysWidth)") }
        let keyCount = try length(before: keysStart, width: keysWidth)
        guard keyCount == values.count else { throw fail("map has \(keyCount) keys for \(values.count) values") }
        try checkRange(keysStart, keyCount * keysWidth)
        let keys = try (0..<keyCount).map {
            try cString(at: try indirect(keysStart + $0 * keysWidth, width: keysWidth))
        }
        return .map(Array(zip(keys, values)))
    }
}
