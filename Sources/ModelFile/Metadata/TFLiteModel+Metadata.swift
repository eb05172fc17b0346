extension TFLiteModel {
    /// The model's TFLite metadata, or `nil` when the model has no `TFLITE_METADATA` entry.
    ///
    /// - Throws: ``ModelFileError/wrongIdentifier(expected:found:)`` when the buffer is not
    ///   `M001` metadata (MediaPipe: "Invalid metadata schema version"), or a malformed error.
    package func metadata() throws -> ModelMetadata? {
        guard metadataEntries.contains(where: { $0.name == ModelMetadata.bufferName }) else { return nil }
        guard let bytes = metadataBuffer(named: ModelMetadata.bufferName) else {
            throw ModelFileError.malformed("the \(ModelMetadata.bufferName) buffer is empty")
        }
        return try ModelMetadata(bytes: bytes)
    }

    /// The files packed into the model: a zip archive appended to the flatbuffer, or `nil`
    /// when the model carries none (MediaPipe treats a model that is not a zip that way).
    package func associatedFiles() throws -> ZipArchive? {
        guard ZipArchive.looksLikeArchive(bytes) else { return nil }
        return try ZipArchive(bytes: bytes)
    }

    /// The bytes of the associated file `name`, which must be stored uncompressed.
    package func associatedFile(named name: String) throws -> ByteRange {
        guard let archive = try associatedFiles() else {
            throw ModelFileError.memberNotFound(name: name, available: [])
        }
        return try archive.storedData(named: name)
    }

    /// The text of a metadata entry whose buffer holds a string, such as
    /// `reduced_precision_support` or `min_runtime_version`.
    package func metadataString(named name: String) -> String? {
        guard let bytes = metadataBuffer(named: name) else { return nil }
        let text = bytes.bytes.prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }
}
