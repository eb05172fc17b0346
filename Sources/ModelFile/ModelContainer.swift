/// A model file as a user names it on the command line or in options: either one `.tflite`
/// model or a `.task` bundle of several.
package struct ModelContainer: Sendable {
    /// What kind of file it is.
    package enum Kind: String, Sendable {
        case tflite
        case bundle
    }

    /// A model and the name it goes by: the bundle member name, or the file name.
    package struct Entry: Sendable {
        package let name: String
        package let model: TFLiteModel
    }

    package let kind: Kind
    /// The bundle, when the file is one.
    package let bundle: ModelAssetBundle?
    private let single: TFLiteModel?
    private let fileName: String

    /// Opens and identifies the file at `path` by its contents: a TFLite flatbuffer (`TFL3`) or
    /// a zip bundle.
    package init(contentsOfFile path: String) throws {
        let storage = try ByteStorage(mappingFileAt: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        try self.init(bytes: storage.all, fileName: name)
    }

    /// Identifies `bytes`, named `fileName`.
    package init(bytes: ByteRange, fileName: String) throws {
        self.fileName = fileName
        let isFlatbuffer = FlatBuffer(bytes).fileIdentifier == TFLiteModel.fileIdentifier
        if !isFlatbuffer, ZipArchive.looksLikeArchive(bytes) {
            kind = .bundle
            bundle = try ModelAssetBundle(bytes: bytes)
            single = nil
        } else {
            kind = .tflite
            bundle = nil
            single = try TFLiteModel(bytes: bytes)
        }
    }

    /// Member names of a bundle, or the file name of a single model.
    package var modelNames: [String] {
        if let bundle { return bundle.memberNames.filter { $0.hasSuffix(".tflite") } }
        return [fileName]
    }

    /// Parses every model: each `.tflite` member of a bundle, or the single model.
    package func models() throws -> [Entry] {
        if let single { return [Entry(name: fileName, model: single)] }
        return try modelNames.map { Entry(name: $0, model: try model(named: $0)) }
    }

    /// The model called `name`: a bundle member, or the single model when `name` is its file
    /// name or `nil`.
    package func model(named name: String?) throws -> TFLiteModel {
        if let single {
            guard name == nil || name == fileName else {
                throw ModelFileError.memberNotFound(name: name ?? "", available: [fileName])
            }
            return single
        }
        guard let bundle else { throw ModelFileError.malformed("empty model container") }
        guard let name else {
            throw ModelFileError.malformed(
                "'\(fileName)' is a bundle; name one of its members: \(bundle.memberNames.joined(separator: ", "))")
        }
        return try bundle.model(named: name)
    }
}
