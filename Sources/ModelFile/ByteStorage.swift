#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Immutable bytes that outlive every view into them: a memory-mapped file or an owned copy.
///
/// Model readers hand out zero-copy slices (``ByteRange``) of a storage object; the storage
/// keeps the mapping alive for as long as any reader refers to it.
package final class ByteStorage: @unchecked Sendable {
    // @unchecked: the bytes are never written after init, and the pointer is only
    // released in deinit.
    /// The whole contents.
    package let bytes: UnsafeRawBufferPointer
    private let release: @Sendable (UnsafeRawBufferPointer) -> Void

    /// Copies `array` into storage owned by this object (16-byte aligned).
    package init<C: Collection>(copying array: C) where C.Element == UInt8 {
        let count = array.count
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
        _ = raw.initializeMemory(as: UInt8.self, from: array)
        // Keep the base address even when empty, so that deinit can free it.
        bytes = UnsafeRawBufferPointer(start: raw.baseAddress, count: count)
        release = { buffer in
            UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
        }
    }

    /// Maps the file at `path` read-only into memory.
    ///
    /// - Throws: ``ModelFileError/cannotOpen(path:reason:)`` when the file cannot be opened,
    ///   is a directory, or cannot be mapped.
    package init(mappingFileAt path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ModelFileError.cannotOpen(path: path, reason: ByteStorage.errnoText())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw ModelFileError.cannotOpen(path: path, reason: ByteStorage.errnoText())
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ModelFileError.cannotOpen(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        if size == 0 {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
            bytes = UnsafeRawBufferPointer(start: raw, count: 0)
            release = { buffer in UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate() }
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
            address != MAP_FAILED
        else {
            throw ModelFileError.cannotOpen(path: path, reason: "mmap failed: " + ByteStorage.errnoText())
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        release = { buffer in
            if let base = buffer.baseAddress {
                munmap(UnsafeMutableRawPointer(mutating: base), buffer.count)
            }
        }
    }

    /// Wraps bytes owned by the caller, who must keep them alive and unchanged while any
    /// reader uses this storage. For tests that mutate one buffer many times without copying.
    package init(unownedBytes: UnsafeRawBufferPointer) {
        bytes = unownedBytes
        release = { _ in }
    }

    deinit { release(bytes) }

    /// Number of bytes.
    package var count: Int { bytes.count }

    /// The whole contents as a range.
    package var all: ByteRange { ByteRange(storage: self, offset: 0, count: bytes.count) }

    private static func errnoText() -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }
}

/// A zero-copy view of part of a ``ByteStorage``.
package struct ByteRange: Sendable {
    /// The storage the range points into; kept alive by this value.
    package let storage: ByteStorage
    /// Offset of the first byte within `storage`.
    package let offset: Int
    /// Number of bytes.
    package let count: Int

    /// Creates a view; the caller guarantees the range lies within `storage`.
    init(storage: ByteStorage, offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset <= storage.count - count, "ByteRange out of bounds")
        self.storage = storage
        self.offset = offset
        self.count = count
    }

    /// The bytes of the range. Valid for as long as `storage` is alive.
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage.bytes[offset..<(offset + count)])
    }

    /// A sub-range, checked against this range.
    package func slice(offset sub: Int, count length: Int, what: String) throws -> ByteRange {
        guard sub >= 0, length >= 0, sub <= count, length <= count - sub else {
            throw ModelFileError.outOfBounds(what: what, offset: sub, length: length, size: count)
        }
        return ByteRange(storage: storage, offset: offset + sub, count: length)
    }

    /// Copies the bytes out.
    package var array: [UInt8] { Array(bytes) }
}
