import VisionTasks

/// Why the server refuses a request: each case is one status and error code of docs/SERVER.md.
package enum ServerError: Error, Sendable {
    case invalidOption(String)
    case invalidImage(String)
    case invalidRequest(String)
    case unauthorized
    case notFound(String)
    case methodNotAllowed(allowed: [String])
    case unsupportedMediaType(String)
    case payloadTooLarge(Int)
    case tooManySessions(Int)
    case modelUnavailable(String)
    case internalError(String)

    /// The error answer.
    package var response: HTTPResponse {
        switch self {
        case .invalidOption(let message): return .error(400, code: "invalidOption", message: message)
        case .invalidImage(let message): return .error(400, code: "invalidImage", message: message)
        case .invalidRequest(let message): return .error(400, code: "invalidRequest", message: message)
        case .unauthorized:
            return .error(
                401, code: "unauthorized", message: "This server needs an 'Authorization: Bearer TOKEN' header.",
                headers: [("WWW-Authenticate", "Bearer")])
        case .notFound(let message): return .error(404, code: "notFound", message: message)
        case .methodNotAllowed(let allowed):
            return .error(
                405, code: "methodNotAllowed", message: "Use \(allowed.joined(separator: " or ")) here.",
                headers: [("Allow", allowed.joined(separator: ", "))])
        case .unsupportedMediaType(let message): return .error(415, code: "unsupportedMediaType", message: message)
        case .payloadTooLarge(let limit):
            return .error(413, code: "payloadTooLarge", message: "The request body is larger than \(limit) bytes.")
        case .tooManySessions(let limit):
            return .error(429, code: "tooManySessions", message: "\(limit) sessions are open; close one first.")
        case .modelUnavailable(let message): return .error(503, code: "modelUnavailable", message: message)
        case .internalError(let message): return .error(500, code: "internalError", message: message)
        }
    }

    /// The server's error for an error a task or the command layer threw.
    static func from(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as CLIError:
            return .invalidOption(error.description)
        case let error as TasksError:
            switch error {
            case .invalidImage(let message): return .invalidImage(message)
            case .invalidOption, .mutuallyExclusiveCategoryLists, .categoryListsRequireLabels:
                return .invalidOption(error.message)
            case .nonIncreasingTimestamp, .runningModeMismatch:
                return .invalidRequest(error.message)
            case .internalError(let message):
                return .internalError(message)
            default:
                return .modelUnavailable(error.message)
            }
        default:
            return .internalError("\(error)")
        }
    }
}
