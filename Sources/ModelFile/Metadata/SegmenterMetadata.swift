/// MediaPipe's image segmenter metadata: a `CustomMetadata` entry named `SEGMENTER_METADATA` in
/// the first subgraph's metadata, holding a flatbuffer `ImageSegmenterOptions` with file
/// identifier `V001` (mediapipe/tasks/metadata/image_segmenter_metadata_schema.fbs; read by
/// mediapipe/tasks/cc/vision/image_segmenter/image_segmenter_graph.cc).
package struct SegmenterMetadata: Sendable, Equatable {
    /// How the model's mask tensor turns into confidences (`Activation` in the schema).
    package enum Activation: Int8, Sendable {
        /// The values are used as they are.
        case none = 0
        /// A logistic function per value.
        case sigmoid = 1
        /// A softmax over the channels of each pixel.
        case softmax = 2
    }

    /// The custom metadata entry's name.
    package static let entryName = "SEGMENTER_METADATA"
    /// The flatbuffer's file identifier.
    package static let fileIdentifier = "V001"

    /// The activation; `NONE` when the table leaves it out (the selfie segmenter's is empty).
    package var activation: Activation

    /// Parses the `ImageSegmenterOptions` flatbuffer of a `SEGMENTER_METADATA` entry.
    ///
    /// - Throws: ``ModelFileError`` for a malformed buffer, a wrong identifier or an activation
    ///   the schema does not define.
    package init(bytes: ByteRange) throws {
        let root = try FlatBuffer(bytes).rootTable(identifier: SegmenterMetadata.fileIdentifier)
        let raw = try root.integer(0, default: Int8(0), "segmenter metadata activation")
        guard let activation = Activation(rawValue: raw) else {
            throw ModelFileError.malformed("segmenter metadata has unknown activation \(raw)")
        }
        self.activation = activation
    }

    /// The segmenter metadata of `metadata`'s first subgraph, or `nil` when it has none.
    package init?(_ metadata: ModelMetadata) throws {
        guard
            let entry = metadata.subgraphs.first?.customMetadata.first(where: { $0.name == SegmenterMetadata.entryName }
            )
        else { return nil }
        guard let data = entry.data else { throw ModelFileError.malformed("segmenter metadata has no data") }
        try self.init(bytes: data)
    }
}
