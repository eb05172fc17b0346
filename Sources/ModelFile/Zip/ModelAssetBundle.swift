/// A MediaPipe `.task` model asset bundle: a zip of stored `.tflite` members.
///
/// Follows MediaPipe's rules (mediapipe/tasks/cc/core/model_asset_bundle_resources.cc): every
/// member must be stored uncompressed, members are found by exact name, and each model is used
/// in place.
public struct ModelAssetBundle: Sendable {
    /// The underlying archive.
    public let archive: ZipArchive

    /// Opens the bundle at `path` (memory-mapped).
    public init(contentsOfFile path: String) throws {
        try self.init(bytes: ByteStorage(mappingFileAt: path).all)
    }

    /// Reads a bundle from bytes.
    ///
    /// - Throws: ``ModelFileError/compressedMember(name:)`` when any member is compressed
    ///   (MediaPipe: "Expected uncompressed zip archive."), or a zip error.
    public init(bytes: ByteRange) throws {
        archive = try ZipArchive(bytes: bytes)
        if let compressed = archive.members.first(where: { !$0.isStored }) {
            throw ModelFileError.compressedMember(name: compressed.name)
        }
    }

    /// Member names in archive order.
    public var memberNames: [String] { archive.memberNames }

    /// The bytes of member `name`, zero-copy.
    public func data(named name: String) throws -> ByteRange {
        try archive.storedData(named: name)
    }

    /// Parses member `name` as a TFLite model.
    public func model(named name: String) throws -> TFLiteModel {
        try TFLiteModel(bytes: data(named: name))
    }
}
