/// MediaPipe's object detector metadata: a `CustomMetadata` entry named `DETECTOR_METADATA` in
/// the first subgraph's metadata, holding a flatbuffer `ObjectDetectorOptions` with file
/// identifier `V001` (mediapipe/tasks/metadata/object_detector_metadata_schema.fbs). It tells a
/// model with raw outputs (no in-model non-max suppression) how to decode them; read by
/// mediapipe/tasks/cc/components/processors/detection_postprocessing_graph.cc.
package struct DetectorMetadata: Sendable, Equatable {
    /// One anchor of a fixed anchor list, in normalized image coordinates (`FixedAnchor`).
    package struct FixedAnchor: Sendable, Equatable {
        package var xCenter: Float
        package var yCenter: Float
        package var width: Float
        package var height: Float

        package init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
            self.xCenter = xCenter
            self.yCenter = yCenter
            self.width = width
            self.height = height
        }
    }

    /// How raw box and score tensors turn into detections (`TensorsDecodingOptions`; the
    /// fields of TensorsToDetectionsCalculatorOptions that the metadata carries).
    package struct Decoding: Sendable, Equatable {
        package var numClasses: Int
        package var numBoxes: Int
        package var numCoords: Int
        package var keypointCoordOffset: Int
        package var numKeypoints: Int
        package var numValuesPerKeypoint: Int
        package var xScale: Float
        package var yScale: Float
        package var wScale: Float
        package var hScale: Float
        package var applyExponentialOnBoxSize: Bool
        package var sigmoidScore: Bool

        package init(
            numClasses: Int, numBoxes: Int, numCoords: Int, keypointCoordOffset: Int, numKeypoints: Int,
            numValuesPerKeypoint: Int, xScale: Float, yScale: Float, wScale: Float, hScale: Float,
            applyExponentialOnBoxSize: Bool, sigmoidScore: Bool
        ) {
            self.numClasses = numClasses
            self.numBoxes = numBoxes
            self.numCoords = numCoords
            self.keypointCoordOffset = keypointCoordOffset
            self.numKeypoints = numKeypoints
            self.numValuesPerKeypoint = numValuesPerKeypoint
            self.xScale = xScale
            self.yScale = yScale
            self.wScale = wScale
            self.hScale = hScale
            self.applyExponentialOnBoxSize = applyExponentialOnBoxSize
            self.sigmoidScore = sigmoidScore
        }
    }

    /// The custom metadata entry's name.
    package static let entryName = "DETECTOR_METADATA"
    /// The flatbuffer's file identifier.
    package static let fileIdentifier = "V001"

    /// `min_parser_version`, when present.
    package var minParserVersion: String?
    /// The anchors of `ssd_anchors_options.fixed_anchors_schema` (empty when absent).
    package var fixedAnchors: [FixedAnchor]
    /// `tensors_decoding_options`, or `nil` when the table leaves it out.
    package var decoding: Decoding?

    /// Parses the `ObjectDetectorOptions` flatbuffer of a `DETECTOR_METADATA` entry.
    ///
    /// - Throws: ``ModelFileError`` for a malformed buffer or a wrong identifier.
    package init(bytes: ByteRange) throws {
        let root = try FlatBuffer(bytes).rootTable(identifier: DetectorMetadata.fileIdentifier)
        minParserVersion = try root.string(0, "detector metadata min_parser_version")
        fixedAnchors = []
        if let ssd = try root.table(1, "detector metadata ssd_anchors_options"),
            let schema = try ssd.table(0, "detector metadata fixed_anchors_schema")
        {
            fixedAnchors = try schema.tables(0, "detector metadata anchors").enumerated().map { index, anchor in
                let tag = "detector metadata anchor \(index)"
                return FixedAnchor(
                    xCenter: try anchor.float(0, default: 0, "\(tag) x_center"),
                    yCenter: try anchor.float(1, default: 0, "\(tag) y_center"),
                    width: try anchor.float(2, default: 0, "\(tag) width"),
                    height: try anchor.float(3, default: 0, "\(tag) height"))
            }
        }
        decoding = try root.table(2, "detector metadata tensors_decoding_options").map { table in
            let tag = "detector metadata tensors_decoding_options"
            return Decoding(
                numClasses: Int(try table.integer(0, default: Int32(0), "\(tag).num_classes")),
                numBoxes: Int(try table.integer(1, default: Int32(0), "\(tag).num_boxes")),
                numCoords: Int(try table.integer(2, default: Int32(0), "\(tag).num_coords")),
                keypointCoordOffset: Int(try table.integer(3, default: Int32(0), "\(tag).keypoint_coord_offset")),
                numKeypoints: Int(try table.integer(4, default: Int32(0), "\(tag).num_keypoints")),
                numValuesPerKeypoint: Int(try table.integer(5, default: Int32(0), "\(tag).num_values_per_keypoint")),
                xScale: try table.float(6, default: 0, "\(tag).x_scale"),
                yScale: try table.float(7, default: 0, "\(tag).y_scale"),
                wScale: try table.float(8, default: 0, "\(tag).w_scale"),
                hScale: try table.float(9, default: 0, "\(tag).h_scale"),
                applyExponentialOnBoxSize: try table.bool(10, default: false, "\(tag).apply_exponential_on_box_size"),
                sigmoidScore: try table.bool(11, default: false, "\(tag).sigmoid_score"))
        }
    }

    /// The detector metadata of `metadata`'s first subgraph, or `nil` when it has none.
    package init?(_ metadata: ModelMetadata) throws {
        guard
            let entry = metadata.subgraphs.first?.customMetadata.first(where: { $0.name == DetectorMetadata.entryName })
        else { return nil }
        guard let data = entry.data else { throw ModelFileError.malformed("detector metadata has no data") }
        try self.init(bytes: data)
    }
}
