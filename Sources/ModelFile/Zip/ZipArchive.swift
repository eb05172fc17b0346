import CZlib

/// A read-only zip archive over mapped bytes: enough of the format for `.task` bundles, the
/// files packed into `.tflite` models, and Python wheels.
///
/// The archive is located through its end-of-central-directory record, so leading bytes before
/// the first local header (as in official `.task` files, or a model with a zip appended) are
/// fine. Stored members are returned zero-copy; deflated members can be extracted with
/// ``extract(_:)``. Format facts: PKWARE APPNOTE.TXT §4.3 (local header, central directory,
/// end of central directory record).
package struct ZipArchive: Sendable {
    /// One member of the archive.
    package struct Member: Sendable {
        /// The member's path inside the archive.
        package let name: String
        /// 0 = stored, 8 = deflated.
        package let compressionMethod: UInt16
        package let compressedSize: Int
        package let uncompressedSize: Int
        package let crc32: UInt32
        /// Offset of the member's local header within the archive bytes.
        package let localHeaderOffset: Int
        /// The member's (possibly compressed) data, zero-copy.
        package let data: ByteRange

        /// Whether the member is stored without compression.
        package var isStored: Bool { compressionMethod == 0 }
    }

    /// The archive's bytes.
    package let bytes: ByteRange
    /// Members in central-directory order.
    package let members: [Member]

    /// Opens the zip archive at `path` (memory-mapped).
    package init(contentsOfFile path: String) throws {
        try self.init(bytes: ByteStorage(mappingFileAt: path).all)
    }

    /// Reads the central directory of the archive held in `bytes`.
    package init(bytes: ByteRange) throws {
        self.bytes = bytes
        let reader = ZipReader(bytes: bytes)
        members = try reader.readMembers()
    }

    /// Whether `bytes` end in a zip end-of-central-directory record.
    package static func looksLikeArchive(_ bytes: ByteRange) -> Bool {
        ZipReader(bytes: bytes).findEndRecord() != nil
    }

    /// The member named `name`, or `nil`.
    package func member(named name: String) -> Member? {
        members.first { $0.name == name }
    }

    /// The names of all members.
    package var memberNames: [String] { members.map(\.name) }

    /// The bytes of a stored member, zero-copy.
    ///
    /// - Throws: ``ModelFileError/memberNotFound(name:available:)``, or
    ///   ``ModelFileError/compressedMember(name:)`` when the member is compressed.
    package func storedData(named name: String) throws -> ByteRange {
        guard let member = member(named: name) else {
            throw ModelFileError.memberNotFound(name: name, available: memberNames)
        }
        guard member.isStored else { throw ModelFileError.compressedMember(name: name) }
        return member.data
    }

    /// The uncompressed bytes of `member`, inflating a deflated member and checking its CRC-32.
    package func extract(_ member: Member) throws -> [UInt8] {
        let output: [UInt8]
        switch member.compressionMethod {
        case 0:
            output = member.data.array
        case 8:
            output = try Inflater.inflate(member.data.bytes, expectedSize: member.uncompressedSize, name: member.name)
        default:
            throw ModelFileError.zip(
                "member '\(member.name)' uses unsupported compression method \(member.compressionMethod)")
        }
        guard output.count == member.uncompressedSize else {
            throw ModelFileError.zip(
                "member '\(member.name)' has \(output.count) bytes, the directory says \(member.uncompressedSize)")
        }
        let crc = output.withUnsafeBufferPointer { buffer -> UInt32 in
            UInt32(truncatingIfNeeded: CZlib.crc32(0, buffer.baseAddress, UInt32(buffer.count)))
        }
        guard crc == member.crc32 else {
            throw ModelFileError.zip("member '\(member.name)' fails its CRC-32 check")
        }
        return output
    }
}

/// Parses the records of a zip archive with bounds checks.
private struct ZipReader {
    let bytes: ByteRange

    private static let endSignature: UInt32 = 0x0605_4b50
    private static let centralSignature: UInt32 = 0x0201_4b50
    private static let localSignature: UInt32 = 0x0403_4b50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    private static let endRecordSize = 22
    private static let maxCommentSize = 0xFFFF

    private func u16(_ at: Int) throws -> Int {
        guard at >= 0, at <= bytes.count - 2 else {
            throw ModelFileError.zip("record at \(at) runs past the end of the archive")
        }
        return Int(UInt16(littleEndian: bytes.bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
    }

    private func u32(_ at: Int) throws -> UInt32 {
        guard at >= 0, at <= bytes.count - 4 else {
            throw ModelFileError.zip("record at \(at) runs past the end of the archive")
        }
        return UInt32(littleEndian: bytes.bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// Position of the end-of-central-directory record: the last signature whose comment length
    /// reaches exactly to the end of the bytes.
    func findEndRecord() -> Int? {
        let count = bytes.count
        guard count >= Self.endRecordSize else { return nil }
        let lowest = Swift.max(0, count - Self.endRecordSize - Self.maxCommentSize)
        var position = count - Self.endRecordSize
        while position >= lowest {
            if (try? u32(position)) == Self.endSignature, let comment = try? u16(position + 20),
                position + Self.endRecordSize + comment == count
            {
                return position
            }
            position -= 1
        }
        return nil
    }

    func readMembers() throws -> [ZipArchive.Member] {
        guard let end = findEndRecord() else {
            throw ModelFileError.zip("no end-of-central-directory record (not a zip archive, or truncated)")
        }
        let disk = try u16(end + 4)
        let directoryDisk = try u16(end + 6)
        let entriesOnDisk = try u16(end + 8)
        let entries = try u16(end + 10)
        let directorySize = Int(try u32(end + 12))
        let directoryOffset = Int(try u32(end + 16))
        if entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF
            || (end >= 20 && (try? u32(end - 20)) == Self.zip64LocatorSignature)
        {
            throw ModelFileError.zip("ZIP64 archives are not supported")
        }
        guard disk == 0, directoryDisk == 0, entriesOnDisk == entries else {
            throw ModelFileError.zip("multi-disk archives are not supported")
        }
        // The directory ends where the end record starts. When the stored offset disagrees, the
        // archive was prefixed with bytes its offsets do not count; shift every offset by that.
        let directoryStart = end - directorySize
        guard directoryStart >= 0 else {
            throw ModelFileError.zip("central directory size \(directorySize) exceeds the archive")
        }
        let shift = directoryStart - directoryOffset
        guard shift >= 0 else {
            throw ModelFileError.zip("central directory offset \(directoryOffset) lies past its end record")
        }

        var members: [ZipArchive.Member] = []
        members.reserveCapacity(entries)
        var position = directoryStart
        for index in 0..<entries {
            guard position + 46 <= end, try u32(position) == Self.centralSignature else {
                throw ModelFileError.zip("central directory entry \(index) is missing or truncated")
            }
            let flags = try u16(position + 8)
            let method = UInt16(try u16(position + 10))
            let crc = try u32(position + 16)
            let compressedSize = Int(try u32(position + 20))
            let uncompressedSize = Int(try u32(position + 24))
            let nameLength = try u16(position + 28)
            let extraLength = try u16(position + 30)
            let commentLength = try u16(position + 32)
            let localOffset = Int(try u32(position + 42)) + shift
            let nameStart = position + 46
            let next = nameStart + nameLength + extraLength + commentLength
            guard next <= end else {
                throw ModelFileError.zip("central directory entry \(index) runs past the directory")
            }
            let name = String(decoding: bytes.bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self)
            guard flags & 1 == 0 else { throw ModelFileError.zip("member '\(name)' is encrypted") }
            guard compressedSize != 0xFFFF_FFFF, uncompressedSize != 0xFFFF_FFFF else {
                throw ModelFileError.zip("ZIP64 archives are not supported")
            }
            let data = try memberData(localOffset: localOffset, size: compressedSize, name: name, limit: directoryStart)
            if method == 0, compressedSize != uncompressedSize {
                throw ModelFileError.zip("stored member '\(name)' has different compressed and uncompressed sizes")
            }
            members.append(
                ZipArchive.Member(
                    name: name, compressionMethod: method, compressedSize: compressedSize,
                    uncompressedSize: uncompressedSize, crc32: crc, localHeaderOffset: localOffset, data: data))
            position = next
        }
        return members
    }

    /// Locates a member's data through its local header.
    private func memberData(localOffset: Int, size: Int, name: String, limit: Int) throws -> ByteRange {
        guard localOffset >= 0, localOffset + 30 <= limit, try u32(localOffset) == Self.localSignature else {
            throw ModelFileError.zip("member '\(name)' has no local header at offset \(localOffset)")
        }
        let nameLength = try u16(localOffset + 26)
        let extraLength = try u16(localOffset + 28)
        let start = localOffset + 30 + nameLength + extraLength
        guard start <= limit, size <= limit - start else {
            throw ModelFileError.zip(
                "member '\(name)' data (\(size) bytes at \(start)) runs past the central directory")
        }
        return try bytes.slice(offset: start, count: size, what: "zip member '\(name)'")
    }
}

/// Raw-deflate decompression through zlib.
private enum Inflater {
    /// Refuse to inflate more than this, whatever the directory claims (zip bombs).
    static let maximumSize = 1 << 30

    static func inflate(_ input: UnsafeRawBufferPointer, expectedSize: Int, name: String) throws -> [UInt8] {
        guard expectedSize <= maximumSize else {
            throw ModelFileError.zip(
                "member '\(name)' declares \(expectedSize) bytes, more than the \(maximumSize)-byte limit")
        }
        var output = [UInt8](repeating: 0, count: expectedSize)
        var stream = z_stream()
        // windowBits -15: raw deflate data, as stored in zip members.
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ModelFileError.zip("cannot initialise zlib")
        }
        defer { inflateEnd(&stream) }
        let status: Int32 = output.withUnsafeMutableBufferPointer { out in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            stream.next_out = out.baseAddress
            stream.avail_out = uInt(out.count)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expectedSize else {
            throw ModelFileError.zip("member '\(name)' is not valid deflate data (zlib status \(status))")
        }
        return output
    }
}
