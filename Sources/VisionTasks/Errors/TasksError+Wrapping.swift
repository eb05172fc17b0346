import Imaging
import Inference
import ModelFile

extension TasksError {
    /// Translates a model-reading error into the error MediaPipe would report for the same
    /// fault.
    package init(_ error: ModelFileError) {
        switch error {
        case .cannotOpen(let path, let reason):
            self = .modelFileNotFound(path: path, reason: reason)
        case .memberNotFound(let name, let available):
            self = .bundleMemberNotFound(name: name, members: available)
        case .compressedMember(let name):
            self = .compressedBundleMember(name: name)
        case .unsupported:
            self = .unsupportedModel(error.description)
        case .outOfBounds, .malformed, .wrongIdentifier, .zip:
            self = .invalidModel(error.description)
        }
    }

    /// Translates an engine error: an operator or option the engine cannot run is an
    /// unsupported model; anything else an invalid one.
    package init(_ error: InferenceError) {
        switch error {
        case .unsupportedOperator, .unsupportedOption:
            self = .unsupportedModel(error.description)
        default:
            self = .invalidModel(error.description)
        }
    }

    /// `error` as a ``TasksError``: itself when it already is one, the translation of a
    /// `ModelFileError`, and otherwise an ``internalError(_:)`` naming it.
    package static func wrapping(_ error: any Error) -> TasksError {
        if let error = error as? TasksError { return error }
        if let error = error as? ModelFileError { return TasksError(error) }
        if let error = error as? InferenceError { return TasksError(error) }
        return .internalError(String(describing: error))
    }
}

extension TasksError {
    /// The error an ``MPImage`` initializer or a task reports for an image that cannot be
    /// read or converted: MediaPipe's invalid-argument code (3) with the imaging message.
    package init(_ error: ImageError) {
        switch error {
        case .outOfMemory:
            self = .internalError(error.description)
        default:
            self = .invalidImage(error.description)
        }
    }
}
