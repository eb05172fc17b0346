/// An error raised while reading a model file, a `.task` bundle or TFLite metadata.
///
/// Every malformed input ends in one of these cases; the readers never trap on
/// outside data.
package enum ModelFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or mapped.
    case cannotOpen(path: String, reason: String)
    /// The bytes are too short, or an offset or length points outside them.
    case outOfBounds(what: String, offset: Int, length: Int, size: Int)
    /// A structure is present but its contents are not valid.
    case malformed(String)
    /// The flatbuffer does not carry the expected file identifier.
    case wrongIdentifier(expected: String, found: String)
    /// The model uses a schema feature this reader does not support.
    case unsupported(String)
    /// A zip archive is malformed or uses a feature that is not supported.
    case zip(String)
    /// A zip member or bundle member with this name does not exist.
    case memberNotFound(name: String, available: [String])
    /// A bundle member is compressed; MediaPipe requires stored (uncompressed) members.
    case compressedMember(name: String)

    package var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open model file '\(path)': \(reason)"
        case let .outOfBounds(what, offset, length, size):
            return "malformed model: \(what) at offset \(offset) with length \(length) lies outside the \(size)-byte buffer"
        case let .malformed(message):
            return "malformed model: \(message)"
        case let .wrongIdentifier(expected, found):
            return "wrong flatbuffer file identifier: expected '\(expected)', found '\(found)'"
        case let .unsupported(message):
            return "unsupported model feature: \(message)"
        case let .zip(message):
            return "malformed zip archive: \(message)"
        case let .memberNotFound(name, available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "member '\(name)' not found in the archive (members: \(list))"
        case let .compressedMember(name):
            return "Expected uncompressed zip archive: member '\(name)' is compressed"
        }
    }
}
