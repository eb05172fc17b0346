import Foundation

/// Every error the vision tasks throw or deliver.
///
/// Each case has a MediaPipe error ``code`` and a ``message`` with the same facts as
/// MediaPipe's message (often more: a rejected timestamp names both values). Bridged to
/// `NSError`, the domain is MediaPipe's `"com.google.mediapipe.tasks"`
/// (mediapipe/tasks/ios/common/utils/sources/MPPCommonUtils.mm), the code is ``code``'s raw value
/// and `localizedDescription` is ``errorDescription``: like on iOS, errors that MediaPipe raises
/// in its C++ core start with the status name, e.g. `"INVALID_ARGUMENT: …"`, errors raised by
/// the Swift layer carry the bare message.
public enum TasksError: Error, Sendable, Equatable {
    /// A live-stream delegate was set although the running mode is image or video.
    case delegateNotAllowed(runningMode: RunningMode)
    /// The running mode is live stream but no live-stream delegate was set.
    case delegateMissing
    /// A method was called that does not belong to the task's running mode.
    case runningModeMismatch(expected: RunningMode, actual: RunningMode)
    /// A video or live-stream timestamp was not greater than the previous accepted one.
    case nonIncreasingTimestamp(previous: Int, received: Int)
    /// An option has a value the task does not accept; `option` is the Swift option name.
    case invalidOption(option: String, message: String)
    /// Both a category allowlist and a denylist were given.
    case mutuallyExclusiveCategoryLists
    /// A category allowlist or denylist was given but the model has no labels.
    case categoryListsRequireLabels
    /// `BaseOptions.modelAssetPath` is `nil` or empty.
    case missingModelPath
    /// The model file could not be opened.
    case modelFileNotFound(path: String, reason: String?)
    /// The model file is not a valid model (corrupt flatbuffer, bad zip, wrong tensors, …).
    case invalidModel(String)
    /// A `.task` bundle lacks a member the task needs.
    case bundleMemberNotFound(name: String, members: [String])
    /// A `.task` bundle member is compressed; MediaPipe requires stored members.
    case compressedBundleMember(name: String)
    /// The model lacks TFLite metadata the task requires.
    case missingMetadata(String)
    /// The model uses a feature this package does not implement.
    case unsupportedModel(String)
    /// The input image cannot be used.
    case invalidImage(String)
    /// An internal invariant broke; please report it.
    case internalError(String)

    /// MediaPipe's error code for this error.
    public var code: TasksErrorCode {
        switch self {
        case .delegateNotAllowed, .delegateMissing, .runningModeMismatch, .nonIncreasingTimestamp,
            .invalidOption, .mutuallyExclusiveCategoryLists, .categoryListsRequireLabels,
            .missingModelPath, .invalidModel, .missingMetadata, .invalidImage:
            return .invalidArgumentError
        case .modelFileNotFound, .bundleMemberNotFound:
            return .notFoundError
        case .compressedBundleMember:
            return .unknownError
        case .unsupportedModel:
            return .unimplementedError
        case .internalError:
            return .internalError
        }
    }

    /// The message without the status-name prefix.
    public var message: String {
        switch self {
        case .delegateNotAllowed:
            // mediapipe/tasks/ios/vision/core/sources/MPPVisionTaskRunner.mm
            return "The vision task is in image or video mode. The delegate must not be set in the task's options."
        case .delegateMissing:
            return "The vision task is in live stream mode. An object must be set as the delegate of the task "
                + "in its options to ensure asynchronous delivery of results."
        case .runningModeMismatch(let expected, let actual):
            return "The vision task is not initialized with \(expected.sentenceName) mode. "
                + "Current Running Mode: \(actual.displayName)"
        case .nonIncreasingTimestamp(let previous, let received):
            // mediapipe/tasks/cc/core/task_runner.cc
            return "Input timestamp must be monotonically increasing. "
                + "Received \(received) ms after \(previous) ms."
        case .invalidOption(_, let message):
            return message
        case .mutuallyExclusiveCategoryLists:
            // mediapipe/tasks/cc/components/processors/detection_postprocessing_graph.cc
            return "`category_allowlist` and `category_denylist` are mutually exclusive options."
        case .categoryListsRequireLabels:
            return "Using `category_allowlist` or `category_denylist` requires labels to be present in the "
                + "TFLite Model Metadata but none was found."
        case .missingModelPath:
            // mediapipe/tasks/cc/core/external_file_handler.cc
            return "ExternalFile must specify at least one of 'file_content', 'file_name', 'file_pointer_meta' "
                + "or 'file_descriptor_meta'. (BaseOptions.modelAssetPath is nil or empty.)"
        case .modelFileNotFound(let path, let reason):
            let detail = reason.map { ": \($0)" } ?? ""
            return "Unable to open file at \(path)\(detail)"
        case .invalidModel(let details):
            return "The model is not a valid model file: \(details)"
        case .bundleMemberNotFound(let name, let members):
            // mediapipe/tasks/cc/core/model_asset_bundle_resources.cc
            let list = members.isEmpty ? "(none)" : members.joined(separator: ", ")
            return "No file with name: \(name). All files in the model asset bundle are: \(list)."
        case .compressedBundleMember(let name):
            // mediapipe/tasks/cc/metadata/utils/zip_utils.cc
            return "Expected uncompressed zip archive. (Member '\(name)' is compressed.)"
        case .missingMetadata(let message), .unsupportedModel(let message), .invalidImage(let message),
            .internalError(let message):
            return message
        }
    }

    /// Whether MediaPipe raises this error in its C++ core, so that iOS shows it with the
    /// status name in front.
    private var comesFromCore: Bool {
        switch self {
        case .delegateNotAllowed, .delegateMissing, .runningModeMismatch, .invalidImage:
            return false
        default:
            return true
        }
    }
}

extension TasksError: LocalizedError {
    /// The description `NSError.localizedDescription` shows, e.g.
    /// `"INVALID_ARGUMENT: Input timestamp must be monotonically increasing. …"`.
    public var errorDescription: String? {
        if comesFromCore, let name = code.statusName {
            return "\(name): \(message)"
        }
        return message
    }
}

extension TasksError: CustomNSError {
    /// MediaPipe's error domain, `"com.google.mediapipe.tasks"`.
    public static var errorDomain: String { "com.google.mediapipe.tasks" }

    /// The raw value of ``code``.
    public var errorCode: Int { code.rawValue }

    /// The user info of the bridged `NSError`: the localized description.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: errorDescription ?? message]
    }
}

extension TasksError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? message }
}
