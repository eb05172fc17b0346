/// TFLite Model Metadata (`ModelMetadata` in MediaPipe's `metadata_schema.fbs`), the subset
/// the vision tasks use.
///
/// Stored in the model buffer named `TFLITE_METADATA`, as its own flatbuffer with file
/// identifier `M001`.
package struct ModelMetadata: Sendable, Equatable {
    /// The name of the metadata entry that points at the metadata buffer.
    package static let bufferName = "TFLITE_METADATA"
    /// The metadata flatbuffer's file identifier.
    package static let fileIdentifier = "M001"

    package var name: String?
    package var description: String?
    package var version: String?
    package var author: String?
    package var license: String?
    /// The oldest metadata parser version that can read this metadata.
    package var minParserVersion: String?
    /// Files attached to the whole model.
    package var associatedFiles: [AssociatedFile]
    /// Per-subgraph metadata (one entry for every model here).
    package var subgraphs: [SubgraphMetadata]

    /// Parses metadata from the bytes of the `TFLITE_METADATA` buffer.
    package init(bytes: ByteRange) throws {
        let root = try FlatBuffer(bytes).rootTable(identifier: ModelMetadata.fileIdentifier)
        name = try root.string(0, "metadata.name")
        description = try root.string(1, "metadata.description")
        version = try root.string(2, "metadata.version")
        subgraphs = try root.tables(3, "metadata.subgraph_metadata").enumerated().map { index, table in
            try SubgraphMetadata(table, tag: "metadata.subgraph_metadata[\(index)]")
        }
        author = try root.string(4, "metadata.author")
        license = try root.string(5, "metadata.license")
        associatedFiles = try AssociatedFile.list(root, field: 6, tag: "metadata.associated_files")
        minParserVersion = try root.string(7, "metadata.min_parser_version")
    }

    /// Metadata of the model's main subgraph's input tensors (empty when there is none).
    package var inputTensors: [TensorMetadata] { subgraphs.first?.inputTensors ?? [] }
    /// Metadata of the model's main subgraph's output tensors (empty when there is none).
    package var outputTensors: [TensorMetadata] { subgraphs.first?.outputTensors ?? [] }

    /// Every associated file named anywhere in the metadata, model level first.
    package var allAssociatedFiles: [AssociatedFile] {
        var files = associatedFiles
        for subgraph in subgraphs {
            files += subgraph.associatedFiles
            for tensor in subgraph.inputTensors + subgraph.outputTensors {
                files += tensor.associatedFiles
            }
        }
        return files
    }
}

/// Metadata of one subgraph (`SubGraphMetadata`).
package struct SubgraphMetadata: Sendable, Equatable {
    package var name: String?
    package var description: String?
    package var inputTensors: [TensorMetadata]
    package var outputTensors: [TensorMetadata]
    package var associatedFiles: [AssociatedFile]
    package var inputProcessUnits: [ProcessUnit]
    package var outputProcessUnits: [ProcessUnit]
    /// Named opaque blobs (`CustomMetadata`), such as MediaPipe's `SEGMENTER_METADATA`.
    package var customMetadata: [CustomMetadata]

    init(_ t: FlatTable, tag: String) throws {
        name = try t.string(0, "\(tag).name")
        description = try t.string(1, "\(tag).description")
        inputTensors = try t.tables(2, "\(tag).input_tensor_metadata").enumerated().map { i, table in
            try TensorMetadata(table, tag: "\(tag).input_tensor_metadata[\(i)]")
        }
        outputTensors = try t.tables(3, "\(tag).output_tensor_metadata").enumerated().map { i, table in
            try TensorMetadata(table, tag: "\(tag).output_tensor_metadata[\(i)]")
        }
        associatedFiles = try AssociatedFile.list(t, field: 4, tag: "\(tag).associated_files")
        inputProcessUnits = try ProcessUnit.list(t, field: 5, tag: "\(tag).input_process_units")
        outputProcessUnits = try ProcessUnit.list(t, field: 6, tag: "\(tag).output_process_units")
        // Fields 7 and 8 are the input and output tensor groups.
        customMetadata = try t.tables(9, "\(tag).custom_metadata").enumerated().map { i, table in
            CustomMetadata(
                name: try table.string(0, "\(tag).custom_metadata[\(i)].name"),
                data: try table.bytes(1, "\(tag).custom_metadata[\(i)].data"))
        }
    }
}

/// A named blob of a subgraph's metadata (`CustomMetadata` in metadata_schema.fbs), whose
/// format belongs to whoever reads it.
package struct CustomMetadata: Sendable {
    package var name: String?
    package var data: ByteRange?
}

extension CustomMetadata: Equatable {
    package static func == (lhs: CustomMetadata, rhs: CustomMetadata) -> Bool {
        lhs.name == rhs.name && lhs.data.map { Array($0.bytes) } == rhs.data.map { Array($0.bytes) }
    }
}

/// Metadata of one tensor (`TensorMetadata`).
package struct TensorMetadata: Sendable, Equatable {
    package var name: String?
    package var description: String?
    package var dimensionNames: [String]
    package var content: Content?
    package var processUnits: [ProcessUnit]
    /// Per-channel value statistics (`Stats`), when present.
    package var statsMax: [Float]
    package var statsMin: [Float]
    package var associatedFiles: [AssociatedFile]

    init(_ t: FlatTable, tag: String) throws {
        name = try t.string(0, "\(tag).name")
        description = try t.string(1, "\(tag).description")
        dimensionNames = try t.strings(2, "\(tag).dimension_names")
        content = try t.table(3, "\(tag).content").map { try Content($0, tag: "\(tag).content") }
        processUnits = try ProcessUnit.list(t, field: 4, tag: "\(tag).process_units")
        let stats = try t.table(5, "\(tag).stats")
        statsMax = try stats?.floats(0, "\(tag).stats.max") ?? []
        statsMin = try stats?.floats(1, "\(tag).stats.min") ?? []
        associatedFiles = try AssociatedFile.list(t, field: 6, tag: "\(tag).associated_files")
    }

    /// The first normalization process unit, which sets an input tensor's value range.
    package var normalization: NormalizationOptions? {
        for unit in processUnits { if case .normalization(let options) = unit { return options } }
        return nil
    }

    /// The first score calibration process unit.
    package var scoreCalibration: ScoreCalibrationOptions? {
        for unit in processUnits { if case .scoreCalibration(let options) = unit { return options } }
        return nil
    }

    /// The image properties of an image tensor.
    package var imageProperties: ImageProperties? {
        if case .image(let properties) = content?.properties { return properties }
        return nil
    }

    /// The bounding-box properties of a box tensor.
    package var boundingBoxProperties: BoundingBoxProperties? {
        if case .boundingBox(let properties) = content?.properties { return properties }
        return nil
    }
}

/// `Content`: what a tensor holds and its value range.
package struct Content: Sendable, Equatable {
    /// The `ContentProperties` union.
    package enum Properties: Sendable, Equatable {
        case feature
        case image(ImageProperties)
        case boundingBox(BoundingBoxProperties)
        case audio
        case unknown(type: UInt8)
    }
    package var properties: Properties?
    /// `ValueRange` (min, max), when present.
    package var range: ClosedRange<Int>?

    init(_ t: FlatTable, tag: String) throws {
        let type = try t.integer(0, default: UInt8(0), "\(tag).content_properties_type")
        let table = try t.table(1, "\(tag).content_properties")
        switch type {
        case 0: properties = nil
        case 1: properties = .feature
        case 2: properties = .image(try ImageProperties(table, tag: "\(tag).image_properties"))
        case 3: properties = .boundingBox(try BoundingBoxProperties(table, tag: "\(tag).bounding_box_properties"))
        case 4: properties = .audio
        default: properties = .unknown(type: type)
        }
        if let r = try t.table(2, "\(tag).range") {
            let low = Int(try r.integer(0, default: Int32(0), "\(tag).range.min"))
            let high = Int(try r.integer(1, default: Int32(0), "\(tag).range.max"))
            range = low <= high ? low...high : nil
        }
    }
}

/// `ImageProperties`.
package struct ImageProperties: Sendable, Equatable {
    /// `ColorSpaceType`.
    package enum ColorSpace: Sendable, Equatable {
        case unknown, rgb, grayscale
        case other(UInt8)
    }
    package var colorSpace: ColorSpace
    package var defaultWidth: Int?
    package var defaultHeight: Int?

    init(_ t: FlatTable?, tag: String) throws {
        let raw = try t?.integer(0, default: UInt8(0), "\(tag).color_space") ?? 0
        colorSpace = [0: .unknown, 1: .rgb, 2: .grayscale][raw] ?? .other(raw)
        if let size = try t?.table(1, "\(tag).default_size") {
            defaultWidth = Int(try size.integer(0, default: UInt32(0), "\(tag).default_size.width"))
            defaultHeight = Int(try size.integer(1, default: UInt32(0), "\(tag).default_size.height"))
        }
    }
}

/// `BoundingBoxProperties`: how a box tensor's four values are laid out.
package struct BoundingBoxProperties: Sendable, Equatable {
    /// `BoundingBoxType`.
    package enum BoxType: UInt8, Sendable {
        case unknown = 0
        case boundaries = 1
        case upperLeft = 2
        case center = 3
    }
    /// `CoordinateType`.
    package enum CoordinateType: UInt8, Sendable {
        case ratio = 0
        case pixel = 1
    }
    /// Positions of (left, top, right, bottom) — or the type's equivalents — in the tensor.
    package var index: [UInt32]
    package var type: BoxType
    package var coordinateType: CoordinateType

    init(_ t: FlatTable?, tag: String) throws {
        index = try t?.integers(0, as: UInt32.self, "\(tag).index") ?? []
        let rawType = try t?.integer(1, default: UInt8(0), "\(tag).type") ?? 0
        let rawCoordinate = try t?.integer(2, default: UInt8(0), "\(tag).coordinate_type") ?? 0
        guard let type = BoxType(rawValue: rawType), let coordinate = CoordinateType(rawValue: rawCoordinate) else {
            throw ModelFileError.malformed("\(tag) has unknown type \(rawType) or coordinate type \(rawCoordinate)")
        }
        self.type = type
        coordinateType = coordinate
    }
}

/// `NormalizationOptions`: `(value - mean) / std`, per channel or for all channels.
package struct NormalizationOptions: Sendable, Equatable {
    package var mean: [Float]
    package var std: [Float]

    /// Creates options with one value or one per channel.
    package init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }
}

/// `ScoreCalibrationOptions`.
package struct ScoreCalibrationOptions: Sendable, Equatable {
    /// `ScoreTransformationType`.
    package enum Transformation: UInt8, Sendable {
        case identity = 0
        case log = 1
        case inverseLogistic = 2
    }
    package var transformation: Transformation
    package var defaultScore: Float
}

/// A `ProcessUnit`: one pre- or post-processing step.
package enum ProcessUnit: Sendable, Equatable {
    case normalization(NormalizationOptions)
    case scoreCalibration(ScoreCalibrationOptions)
    case scoreThresholding(globalThreshold: Float)
    /// A tokenizer or unknown unit, with its union type.
    case other(type: UInt8)

    static func list(_ t: FlatTable, field: Int, tag: String) throws -> [ProcessUnit] {
        try t.tables(field, tag).enumerated().map { index, unit in
            let what = "\(tag)[\(index)]"
            let type = try unit.integer(0, default: UInt8(0), "\(what).options_type")
            let options = try unit.table(1, "\(what).options")
            switch type {
            case 1:
                return .normalization(
                    NormalizationOptions(
                        mean: try options?.floats(0, "\(what).mean") ?? [],
                        std: try options?.floats(1, "\(what).std") ?? []))
            case 2:
                let raw = try options?.integer(0, default: UInt8(0), "\(what).score_transformation") ?? 0
                guard let transformation = ScoreCalibrationOptions.Transformation(rawValue: raw) else {
                    throw ModelFileError.malformed("\(what) has unknown score transformation \(raw)")
                }
                return .scoreCalibration(
                    ScoreCalibrationOptions(
                        transformation: transformation,
                        defaultScore: try options?.float(1, default: 0, "\(what).default_score") ?? 0))
            case 3:
                return .scoreThresholding(
                    globalThreshold: try options?.float(0, default: 0, "\(what).global_score_threshold") ?? 0)
            default:
                return .other(type: type)
            }
        }
    }
}

/// `AssociatedFile`: a file packed with the model (labels, calibration, …).
package struct AssociatedFile: Sendable, Equatable {
    /// `AssociatedFileType`.
    package enum FileType: UInt8, Sendable {
        case unknown = 0
        case descriptions = 1
        case tensorAxisLabels = 2
        case tensorValueLabels = 3
        case tensorAxisScoreCalibration = 4
        case vocabulary = 5
        case scannIndexFile = 6
    }
    package var name: String
    package var description: String?
    package var type: FileType
    /// Language of a label file, for display names (`"en"`).
    package var locale: String?
    package var version: String?

    static func list(_ t: FlatTable, field: Int, tag: String) throws -> [AssociatedFile] {
        try t.tables(field, tag).enumerated().map { index, file in
            let what = "\(tag)[\(index)]"
            let raw = try file.integer(2, default: UInt8(0), "\(what).type")
            return AssociatedFile(
                name: try file.string(0, "\(what).name") ?? "",
                description: try file.string(1, "\(what).description"),
                type: FileType(rawValue: raw) ?? .unknown,
                locale: try file.string(3, "\(what).locale"),
                version: try file.string(4, "\(what).version"))
        }
    }
}
