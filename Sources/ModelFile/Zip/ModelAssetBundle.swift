/// A MediaPipe `.task` model asset bundle: a zip of stored `.tflite` members.
///
/// Follows MediaPipe's rules (mediapipe/tasks/cc/core/model_asset_bundle_resources.cc): every
/// member must be stored uncompressed, members are found by exact name, and each model is used
/// in place.
package struct ModelAssetBundle: Sendable {
    /// The underlying archive.
    package let archive: ZipArchive

    /// Opens the bundle at `path` (memory-mapped).
    package init(contentsOfFile path: String) throws {
        try self.init(bytes: ByteStorage(mappingFileAt: path).all)
    }

    /// Reads a bundle from bytes.
    ///
    /// - Throws: ``ModelFileError/compressedMember(name:)`` when any member is compressed
    ///   (MediaPipe: "Expected uncompressed zip archive."), or a zip error.
    package init(bytes: ByteRange) throws {
        archive = try ZipArchive(bytes: bytes)
        if let compressed = archive.members.first(where: { !$0.isStored }) {
            throw ModelFileError.compressedMember(name: compressed.name)
        }
    }

    /// Member names in archive order.
    package var memberNames: [String] { archive.memberNames }

    /// The bytes of member `name`, zero-copy.
    package func data(named name: String) throws -> ByteRange {
        try archive.storedData(named: name)
    }

    /// Parses member `name` as a TFLite model.
    package func model(named name: String) throws -> TFLiteModel {
        try TFLiteModel(bytes: data(named: name))
    }
}
