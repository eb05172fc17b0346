import Testing

@testable import ModelFile

/// The protocol buffer wire reader behind the face landmarker's geometry metadata: the four wire
/// types, packed and unpacked repeated fields, and typed errors on malformed bytes.
@Suite struct ProtobufReaderTests {
    @Test func readsEveryWireTypeAndBothRepeatedEncodings() throws {
        // field 1 varint 300; field 2 fixed32 1.5; field 3 bytes [1, 2]; field 4 fixed64 7.
        let bytes: [UInt8] =
            [0x08, 0xAC, 0x02, 0x15] + withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init)
            + [0x1A, 0x02, 0x01, 0x02, 0x21] + withUnsafeBytes(of: UInt64(7).littleEndian, Array.init)
        var reader = ProtobufReader(ByteStorage(copying: bytes).all, what: "test")
        var fields: [Int] = []
        while let (field, value) = try reader.next() {
            fields.append(field)
            switch (field, value) {
            case (1, .varint(let number)): #expect(number == 300)
            case (2, .fixed32(let bits)): #expect(Float(bitPattern: bits) == 1.5)
            case (3, .bytes(let range)):
                #expect(range.array == [1, 2])
                #expect(try ProtobufReader.varints(.bytes(range), what: "packed") == [1, 2])
            case (4, .fixed64(let number)): #expect(number == 7)
            default: Issue.record("unexpected field \(field)")
            }
        }
        #expect(fields == [1, 2, 3, 4])
        #expect(try ProtobufReader.floats(.fixed32(Float(2).bitPattern), what: "one") == [2])
    }

    @Test func malformedBytesAreTypedErrors() {
        for bytes: [UInt8] in [
            [0x08, 0x80],  // truncated varint
            [0x1A, 0x05, 0x01],  // length past the end
            [0x0B],  // wire type 3 (group start) is not read
            [0x15, 0x00],  // truncated fixed32
            [0x00, 0x01],  // field number 0
        ] {
            var reader = ProtobufReader(ByteStorage(copying: bytes).all, what: "test")
            #expect(throws: ModelFileError.self) { while try reader.next() != nil {} }
        }
        #expect(throws: ModelFileError.self) {
            try GeometryPipelineMetadata(bytes: ByteStorage(copying: [0x18, 0x01]).all)
        }
    }
}
