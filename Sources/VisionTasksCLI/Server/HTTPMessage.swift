import Foundation

/// One HTTP request as the server's handler sees it: the method, the path without its query,
/// the decoded query parameters in their order, the headers (names in lower case) and the body.
package struct HTTPRequest: Sendable {
    package var method: String
    package var path: String
    package var query: [(name: String, value: String)]
    package var headers: [String: String]
    package var body: [UInt8]
    /// Set when the body was larger than the server's limit (this many bytes) and was dropped
    /// unread; the request is then answered 413.
    package var bodyLimitExceeded: Int?

    package init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:],
        body: [UInt8] = [], bodyLimitExceeded: Int? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyLimitExceeded = bodyLimitExceeded
    }

    /// The media type of `Content-Type`, in lower case, without its parameters.
    package var mediaType: String? {
        headers["content-type"].map {
            String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}

/// One HTTP response: status, headers and body.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer.
    package static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")], body: Array(value.serialized().utf8))
    }

    /// An error answer: `{"error": {"code", "message"}}` (docs/SERVER.md).
    package static func error(_ status: Int, code: String, message: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        var response = json(
            .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]), status: status)
        response.headers += headers.map { (name: $0.0, value: $0.1) }
        return response
    }

    /// A text answer of `contentType`.
    package static func text(_ text: String, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}
