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
        case .cannotOpen(let path, let reason):
            return "cannot open model file '\(path)': \(reason)"
        case .outOfBounds(let what, let offset, let length, let size):
            return
                "malformed model: \(what) at offset \(offset) with length \(length) lies outside the \(size)-byte "
                + "buffer"
        case .malformed(let message):
            return "malformed model: \(message)"
        case .wrongIdentifier(let expected, let found):
            return "wrong flatbuffer file identifier: expected '\(expected)', found '\(found)'"
        case .unsupported(let message):
            return "unsupported model feature: \(message)"
        case .zip(let message):
            return "malformed zip archive: \(message)"
        case .memberNotFound(let name, let available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "member '\(name)' not found in the archive (members: \(list))"
        case .compressedMember(let name):
            return "Expected uncompressed zip archive: member '\(name)' is compressed"
        }
    }
}
