/// The error codes of MediaPipe Tasks, carried as `NSError.code` of a ``TasksError``.
///
/// Mirrors MediaPipe's `MPPTasksErrorCode` (mediapipe/tasks/ios/common/sources/MPPCommon.h):
/// codes 1…16 are the absl status codes, 17…20 belong to the audio tasks.
public enum TasksErrorCode: Int, Sendable, CaseIterable {
    /// The operation was cancelled.
    case cancelledError = 1
    /// An error that fits no other code.
    case unknownError = 2
    /// A bad option, input, call or model.
    case invalidArgumentError = 3
    /// A deadline passed.
    case deadlineExceededError = 4
    /// A file or bundle member does not exist.
    case notFoundError = 5
    /// Something already exists.
    case alreadyExistsError = 6
    /// Permission was denied.
    case permissionDeniedError = 7
    /// A resource ran out.
    case resourceExhaustedError = 8
    /// The system is not in a state that allows the operation.
    case failedPreconditionError = 9
    /// The operation was aborted.
    case abortedError = 10
    /// A value was out of range.
    case outOfRangeError = 11
    /// The operation is not supported.
    case unimplementedError = 12
    /// An internal invariant broke.
    case internalError = 13
    /// The service is unavailable.
    case unavailableError = 14
    /// Data was lost or corrupted.
    case dataLossError = 15
    /// The caller is not authenticated.
    case unauthenticatedError = 16
    /// Audio tasks: microphone permission denied.
    case audioRecordPermissionDeniedError = 17
    /// Audio tasks: microphone permission not determined.
    case audioRecordPermissionUndeterminedError = 18
    /// Audio tasks: waiting for new microphone input.
    case audioRecordWaitingForNewMicInputError = 19
    /// Audio tasks: the microphone is not tapped.
    case audioRecordNotTappingMicError = 20

    /// The absl status name MediaPipe prefixes to errors from its C++ core, such as
    /// `INVALID_ARGUMENT`; `nil` for the audio codes.
    var statusName: String? {
        switch self {
        case .cancelledError: return "CANCELLED"
        case .unknownError: return "UNKNOWN"
        case .invalidArgumentError: return "INVALID_ARGUMENT"
        case .deadlineExceededError: return "DEADLINE_EXCEEDED"
        case .notFoundError: return "NOT_FOUND"
        case .alreadyExistsError: return "ALREADY_EXISTS"
        case .permissionDeniedError: return "PERMISSION_DENIED"
        case .resourceExhaustedError: return "RESOURCE_EXHAUSTED"
        case .failedPreconditionError: return "FAILED_PRECONDITION"
        case .abortedError: return "ABORTED"
        case .outOfRangeError: return "OUT_OF_RANGE"
        case .unimplementedError: return "UNIMPLEMENTED"
        case .internalError: return "INTERNAL"
        case .unavailableError: return "UNAVAILABLE"
        case .dataLossError: return "DATA_LOSS"
        case .unauthenticatedError: return "UNAUTHENTICATED"
        case .audioRecordPermissionDeniedError, .audioRecordPermissionUndeterminedError,
            .audioRecordWaitingForNewMicInputError, .audioRecordNotTappingMicError:
            return nil
        }
    }
}
