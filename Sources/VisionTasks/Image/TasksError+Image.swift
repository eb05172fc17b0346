import Imaging

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
