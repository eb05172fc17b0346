/// A bounds-checked reader of the protocol buffer wire format
/// (https://protobuf.dev/programming-guides/encoding/): varints, 32- and 64-bit fixed fields and
/// length-delimited fields, enough to read MediaPipe's small binary protos (the face
/// landmarker's geometry pipeline metadata) without a protobuf library.
package struct ProtobufReader {
    /// One field: its number and its value.
    package enum Value {
        case varint(UInt64)
        case fixed32(UInt32)
        case fixed64(UInt64)
        case bytes(ByteRange)
    }

    private let range: ByteRange
    private var position = 0
    private let what: String

    /// A reader of the message in `range`; `what` names it in errors.
    package init(_ range: ByteRange, what: String) {
        self.range = range
        self.what = what
    }

    /// The next field, or `nil` at the end of the message.
    ///
    /// - Throws: ``ModelFileError/malformed(_:)`` for a truncated field, an overlong varint, a
    ///   length beyond the message or a wire type this format does not define.
    package mutating func next() throws -> (field: Int, value: Value)? {
        guard position < range.count else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        guard field > 0 else { throw ModelFileError.malformed("\(what): field number 0") }
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1: return (field, .fixed64(try fixed(UInt64.self)))
        case 2:
            let length = try varint()
            guard length <= UInt64(range.count - position) else {
                throw ModelFileError.malformed("\(what): field \(field) claims \(length) bytes past the end")
            }
            let bytes = try range.slice(offset: position, count: Int(length), what: what)
            position += Int(length)
            return (field, .bytes(bytes))
        case 5: return (field, .fixed32(try fixed(UInt32.self)))
        default: throw ModelFileError.malformed("\(what): unknown wire type \(key & 7) of field \(field)")
        }
    }

    private mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let bytes = range.bytes
        while true {
            guard position < bytes.count else { throw ModelFileError.malformed("\(what): truncated varint") }
            guard shift < 64 else { throw ModelFileError.malformed("\(what): varint longer than 10 bytes") }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    private mutating func fixed<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard range.count - position >= size else { throw ModelFileError.malformed("\(what): truncated fixed field") }
        let value = T(littleEndian: range.bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        position += size
        return value
    }

    /// The floats of a repeated `float` field value: one unpacked element, or a packed run.
    package static func floats(_ value: Value, what: String) throws -> [Float] {
        switch value {
        case .fixed32(let bits): return [Float(bitPattern: bits)]
        case .bytes(let packed):
            guard packed.count % 4 == 0 else {
                throw ModelFileError.malformed("\(what): packed floats of \(packed.count) bytes")
            }
            return (0..<(packed.count / 4)).map {
                Float(
                    bitPattern: UInt32(
                        littleEndian: packed.bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        default: throw ModelFileError.malformed("\(what): expected float values")
        }
    }

    /// The integers of a repeated varint field value: one unpacked element, or a packed run.
    package static func varints(_ value: Value, what: String) throws -> [UInt64] {
        switch value {
        case .varint(let number): return [number]
        case .bytes(let packed):
            var reader = ProtobufReader(packed, what: what)
            var numbers: [UInt64] = []
            while reader.position < packed.count { numbers.append(try reader.varint()) }
            return numbers
        default: throw ModelFileError.malformed("\(what): expected varint values")
        }
    }
}
