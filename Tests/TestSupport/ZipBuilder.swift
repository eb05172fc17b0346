/// Builds small zip archives byte by byte for tests, with control over the details the reader
/// must cope with (leading bytes, alignment padding, compression method, comments).
public struct ZipBuilder {
    public struct Entry {
        public var name: String
        public var data: [UInt8]
        public var method: UInt16 = 0
        /// Bytes stored for the member (the deflate stream for method 8); defaults to `data`.
        public var stored: [UInt8]? = nil
        public var crc: UInt32? = nil

        /// An entry; `crc` defaults to the CRC-32 of `data`, `stored` to `data`.
        public init(name: String, data: [UInt8], method: UInt16 = 0, stored: [UInt8]? = nil, crc: UInt32? = nil) {
            self.name = name
            self.data = data
            self.method = method
            self.stored = stored
            self.crc = crc
        }
    }

    public var leadingBytes: [UInt8] = []
    /// Align every member's data to this many bytes with zero padding before the local header.
    public var alignment: Int = 1
    public var comment: [UInt8] = []
    /// Write central-directory offsets relative to the first local header instead of the file.
    public var offsetsRelativeToArchiveStart = false

    /// A builder with no leading bytes, no padding and no comment.
    public init() {}

    /// The archive holding `entries`, stored in that order.
    public func build(_ entries: [Entry]) -> [UInt8] {
        var out = leadingBytes
        var central: [UInt8] = []
        let base = offsetsRelativeToArchiveStart ? leadingBytes.count : 0
        for entry in entries {
            let payload = entry.stored ?? entry.data
            let name = Array(entry.name.utf8)
            // Pad so that the data after the 30-byte header and the name lands aligned.
            while (out.count + 30 + name.count) % alignment != 0 { out.append(0) }
            let headerOffset = out.count
            let crc = entry.crc ?? ZipBuilder.crc32(entry.data)
            out += le32(0x0403_4b50) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(payload.count)) + le32(UInt32(entry.data.count))
            out += le16(UInt16(name.count)) + le16(0) + name + payload
            central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(payload.count)) + le32(UInt32(entry.data.count))
            central += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            central += le32(UInt32(headerOffset - base)) + name
        }
        let centralOffset = out.count - base
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(UInt32(centralOffset)) + le16(UInt16(comment.count)) + comment
        return out
    }

    /// A valid raw-deflate stream holding `data` in one stored block (RFC 1951 §3.2.4).
    public static func deflateStoredBlock(_ data: [UInt8]) -> [UInt8] {
        let length = UInt16(data.count)
        return [0x01] + le16(length) + le16(~length) + data
    }

    /// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), bit by bit.
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// `value` as two little-endian bytes.
public func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
/// `value` as four little-endian bytes.
public func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
