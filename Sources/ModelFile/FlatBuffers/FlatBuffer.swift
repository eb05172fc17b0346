/// A bounds-checked, zero-copy reader of one flatbuffer.
///
/// Every offset and length read from the buffer is checked before it is followed, so a
/// malformed buffer ends in a thrown ``ModelFileError`` instead of an out-of-bounds read.
/// Format facts: google/flatbuffers `docs/source/internals.md` (uoffset/soffset/vtable layout).
struct FlatBuffer {
    /// The bytes of this flatbuffer (which may be nested inside a larger file).
    let range: ByteRange

    init(_ range: ByteRange) {
        self.range = range
    }

    var size: Int { range.count }

    /// Reads a little-endian integer at `position`, checking that it lies inside the buffer.
    @inline(__always)
    func load<T: FixedWidthInteger>(_ type: T.Type, at position: Int, what: @autoclosure () -> String) throws -> T {
        let width = MemoryLayout<T>.size
        guard position >= 0, position <= size - width else {
            throw ModelFileError.outOfBounds(what: what(), offset: position, length: width, size: size)
        }
        return T(littleEndian: range.bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// The four-character file identifier at bytes 4..<8, or `nil` when the buffer is shorter.
    var fileIdentifier: String? {
        guard size >= 8 else { return nil }
        let bytes = range.bytes[4..<8]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The root table, optionally checking the file identifier.
    func rootTable(identifier: String? = nil) throws -> FlatTable {
        guard size >= 8 else {
            throw ModelFileError.outOfBounds(what: "flatbuffer header", offset: 0, length: 8, size: size)
        }
        if let identifier {
            let found = fileIdentifier ?? ""
            guard found == identifier else {
                throw ModelFileError.wrongIdentifier(expected: identifier, found: found)
            }
        }
        let offset = try load(UInt32.self, at: 0, what: "root offset")
        return try FlatTable(buffer: self, position: Int(offset), what: "root table")
    }

    /// Follows the unsigned offset stored at `position` and returns the absolute target position.
    func followOffset(at position: Int, what: @autoclosure () -> String) throws -> Int {
        let offset = try load(UInt32.self, at: position, what: what())
        let target = position + Int(offset)
        guard target < size else {
            throw ModelFileError.outOfBounds(what: what(), offset: target, length: 1, size: size)
        }
        return target
    }
}

/// One table of a ``FlatBuffer``: a vtable-indexed set of optional fields.
struct FlatTable {
    let buffer: FlatBuffer
    /// Absolute position of the table.
    let position: Int
    private let vtable: Int
    private let vtableSize: Int
    private let tableSize: Int

    init(buffer: FlatBuffer, position: Int, what: @autoclosure () -> String) throws {
        self.buffer = buffer
        self.position = position
        let relative = try buffer.load(Int32.self, at: position, what: what() + " (vtable offset)")
        let vtable = position - Int(relative)
        let vtableSize = Int(try buffer.load(UInt16.self, at: vtable, what: what() + " (vtable)"))
        let tableSize = Int(try buffer.load(UInt16.self, at: vtable + 2, what: what() + " (vtable)"))
        guard vtableSize >= 4, vtableSize % 2 == 0, vtable + vtableSize <= buffer.size else {
            throw ModelFileError.outOfBounds(
                what: what() + " (vtable)", offset: vtable, length: vtableSize, size: buffer.size)
        }
        guard tableSize >= 4, position + tableSize <= buffer.size else {
            throw ModelFileError.outOfBounds(what: what(), offset: position, length: tableSize, size: buffer.size)
        }
        self.vtable = vtable
        self.vtableSize = vtableSize
        self.tableSize = tableSize
    }

    /// Absolute position of field `id` when present and at least `width` bytes fit in the table.
    func fieldPosition(_ id: Int, width: Int, what: @autoclosure () -> String) throws -> Int? {
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try buffer.load(UInt16.self, at: vtable + entry, what: what()))
        guard offset != 0 else { return nil }
        guard offset + width <= tableSize else {
            throw ModelFileError.outOfBounds(
                what: what(), offset: position + offset, length: width, size: position + tableSize)
        }
        return position + offset
    }

    /// Whether field `id` is present.
    func has(_ id: Int) throws -> Bool {
        try fieldPosition(id, width: 0, what: "field \(id)") != nil
    }

    // MARK: Scalars

    func integer<T: FixedWidthInteger>(_ id: Int, default value: T, _ what: @autoclosure () -> String) throws -> T {
        guard let at = try fieldPosition(id, width: MemoryLayout<T>.size, what: what()) else { return value }
        return try buffer.load(T.self, at: at, what: what())
    }

    func float(_ id: Int, default value: Float, _ what: @autoclosure () -> String) throws -> Float {
        guard let at = try fieldPosition(id, width: 4, what: what()) else { return value }
        return Float(bitPattern: try buffer.load(UInt32.self, at: at, what: what()))
    }

    func bool(_ id: Int, default value: Bool, _ what: @autoclosure () -> String) throws -> Bool {
        guard let at = try fieldPosition(id, width: 1, what: what()) else { return value }
        return try buffer.load(UInt8.self, at: at, what: what()) != 0
    }

    // MARK: Offsets

    /// The nested table in field `id`, or `nil` when absent.
    func table(_ id: Int, _ what: @autoclosure () -> String) throws -> FlatTable? {
        guard let at = try fieldPosition(id, width: 4, what: what()) else { return nil }
        let target = try buffer.followOffset(at: at, what: what())
        return try FlatTable(buffer: buffer, position: target, what: what())
    }

    /// The string in field `id`, or `nil` when absent. Invalid UTF-8 is repaired, not trusted.
    func string(_ id: Int, _ what: @autoclosure () -> String) throws -> String? {
        guard let vector = try vector(id, elementSize: 1, what()) else { return nil }
        return String(decoding: vector.bytes, as: UTF8.self)
    }

    /// The vector in field `id`, or `nil` when absent.
    func vector(_ id: Int, elementSize: Int, _ what: @autoclosure () -> String) throws -> FlatVector? {
        guard let at = try fieldPosition(id, width: 4, what: what()) else { return nil }
        let start = try buffer.followOffset(at: at, what: what())
        return try FlatVector(buffer: buffer, position: start, elementSize: elementSize, what: what())
    }

    /// The tables of a vector-of-tables field; empty when absent.
    func tables(_ id: Int, _ what: @autoclosure () -> String) throws -> [FlatTable] {
        guard let vector = try vector(id, elementSize: 4, what()) else { return [] }
        var result: [FlatTable] = []
        result.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            let target = try buffer.followOffset(at: vector.elementPosition(index), what: what())
            result.append(try FlatTable(buffer: buffer, position: target, what: "\(what())[\(index)]"))
        }
        return result
    }

    /// The strings of a vector-of-strings field; empty when absent.
    func strings(_ id: Int, _ what: @autoclosure () -> String) throws -> [String] {
        guard let vector = try vector(id, elementSize: 4, what()) else { return [] }
        var result: [String] = []
        result.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            let target = try buffer.followOffset(at: vector.elementPosition(index), what: what())
            let string = try FlatVector(buffer: buffer, position: target, elementSize: 1, what: what())
            result.append(String(decoding: string.bytes, as: UTF8.self))
        }
        return result
    }

    /// The elements of a vector of integers; `nil` when absent.
    func integers<T: FixedWidthInteger>(_ id: Int, as type: T.Type, _ what: @autoclosure () -> String) throws -> [T]? {
        guard let vector = try vector(id, elementSize: MemoryLayout<T>.size, what()) else { return nil }
        return vector.integers(as: T.self)
    }

    /// The elements of a vector of float32; `nil` when absent.
    func floats(_ id: Int, _ what: @autoclosure () -> String) throws -> [Float]? {
        guard let vector = try vector(id, elementSize: 4, what()) else { return nil }
        return vector.integers(as: UInt32.self).map(Float.init(bitPattern:))
    }

    /// A byte vector as a zero-copy range of the underlying storage; `nil` when absent.
    func bytes(_ id: Int, _ what: @autoclosure () -> String) throws -> ByteRange? {
        guard let vector = try vector(id, elementSize: 1, what()) else { return nil }
        return vector.range
    }
}

/// A checked vector inside a ``FlatBuffer``: a 32-bit length followed by the elements.
struct FlatVector {
    let buffer: FlatBuffer
    /// Absolute position of the first element.
    let start: Int
    let count: Int
    let elementSize: Int

    init(buffer: FlatBuffer, position: Int, elementSize: Int, what: @autoclosure () -> String) throws {
        let length = Int(try buffer.load(UInt32.self, at: position, what: what() + " (length)"))
        let start = position + 4
        // Divide instead of multiplying so that a huge declared length cannot overflow.
        guard elementSize == 0 || length <= (buffer.size - start) / elementSize else {
            throw ModelFileError.outOfBounds(
                what: what(), offset: start, length: length.multipliedReportingOverflow(by: elementSize).partialValue,
                size: buffer.size)
        }
        self.buffer = buffer
        self.start = start
        self.count = length
        self.elementSize = elementSize
    }

    func elementPosition(_ index: Int) -> Int { start + index * elementSize }

    /// The elements' bytes, zero-copy.
    var range: ByteRange {
        ByteRange(storage: buffer.range.storage, offset: buffer.range.offset + start, count: count * elementSize)
    }

    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer.range.bytes[start..<(start + count * elementSize)])
    }

    /// Decodes little-endian integers; the vector's bounds were checked at init.
    func integers<T: FixedWidthInteger>(as type: T.Type) -> [T] {
        let raw = bytes
        let width = MemoryLayout<T>.size
        return (0..<count).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * width, as: T.self)) }
    }
}
