import Foundation
import VisionTasks

/// What `vision-tasks serve` answers: the routes of docs/SERVER.md over the task commands'
/// adapters, a pool of task instances for stateless requests, tracking sessions and metrics.
/// The HTTP layer (``HTTPServer``) calls ``handle(_:)`` from its worker threads.
package final class VisionService: Sendable {
    package struct Configuration: Sendable {
        /// The models folder; `nil` for the usual default (`$VISION_TASKS_MODELS`, else ./Models).
        package var modelsDirectory: String?
        /// Threads per task instance.
        package var threads = 1
        /// Requests served at once (task instances per option set).
        package var workers = 2
        /// When set, every request but the page needs `Authorization: Bearer token`.
        package var token: String?
        package var sessionIdleSeconds: TimeInterval = 300
        /// The clock that session idle times are measured with: the wall clock (tests set their own).
        package var clock: @Sendable () -> Date = { Date() }

        package init(modelsDirectory: String? = nil) {
            self.modelsDirectory = modelsDirectory
        }
    }

    let configuration: Configuration
    let context: CommandContext
    let pool: TaskPool
    let sessions: SessionStore
    let metrics = ServerMetrics()

    package init(configuration: Configuration, context: CommandContext) {
        self.configuration = configuration
        var context = context
        if let directory = configuration.modelsDirectory {
            context.environment["VISION_TASKS_MODELS"] = context.absolute(directory)
        }
        self.context = context
        pool = TaskPool(instancesPerKey: configuration.workers)
        sessions = SessionStore(idleSeconds: configuration.sessionIdleSeconds, clock: configuration.clock)
    }

    /// Answers one request and records it in the metrics.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        let (endpoint, response): (String, HTTPResponse)
        do {
            if let limit = request.bodyLimitExceeded {
                throw ServerError.payloadTooLarge(limit)
            }
            (endpoint, response) = try route(request)
        } catch {
            endpoint = Self.endpointName(request.path)
            response = ServerError.from(error).response
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        metrics.record(endpoint: endpoint, status: response.status, seconds: seconds)
        return response
    }

    /// The metrics label of a path that failed before it was routed.
    static func endpointName(_ path: String) -> String {
        let parts = path.split(separator: "/")
        if parts.count >= 2, parts[0] == "v1" {
            if parts[1] == "sessions" { return "session" }
            if TaskEndpoint.named(String(parts[1])) != nil { return String(parts[1]) }
        }
        return ["/", "/healthz", "/metrics", "/openapi.json", "/v1/models"].contains(path) ? path : "other"
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest) throws -> (String, HTTPResponse) {
        let path = request.path
        let method = request.method == "HEAD" ? "GET" : request.method
        func only(_ allowed: String) throws {
            guard method == allowed else {
                throw ServerError.methodNotAllowed(allowed: allowed == "GET" ? ["GET", "HEAD"] : [allowed])
            }
        }
        if path == "/" || path == "/index.html" {
            try only("GET")
            return ("/", .text(ServerPage.html, contentType: "text/html; charset=utf-8"))
        }
        try authorize(request)
        let parts = path.split(separator: "/").map(String.init)
        switch (parts.first, parts.count) {
        case ("healthz", 1):
            try only("GET")
            return (path, .json(.object([("status", .string("ok"))])))
        case ("metrics", 1):
            try only("GET")
            return (
                path,
                .text(
                    metrics.render(openSessions: sessions.count),
                    contentType: "text/plain; version=0.0.4; charset=utf-8")
            )
        case ("openapi.json", 1):
            try only("GET")
            return (path, .json(OpenAPIDocument.make(authenticated: configuration.token != nil)))
        case ("v1", 2) where parts[1] == "models":
            try only("GET")
            return (path, .json(models()))
        case ("v1", 2) where parts[1] == "sessions":
            try only("POST")
            return ("session", try openSession(request))
        case ("v1", 3) where parts[1] == "sessions":
            try only("DELETE")
            try sessions.remove(parts[2])
            return ("session", HTTPResponse(status: 204))
        case ("v1", 4) where parts[1] == "sessions" && parts[3] == "frames":
            try only("POST")
            return ("session", try sessionFrame(request, id: parts[2]))
        case ("v1", 2):
            guard let endpoint = TaskEndpoint.named(parts[1]) else {
                throw ServerError.notFound(
                    "No task '\(parts[1])'; the tasks are " + TaskEndpoint.all.map(\.name).joined(separator: ", ") + "."
                )
            }
            try only("POST")
            return (endpoint.name, .json(try runImage(endpoint, request)))
        default:
            throw ServerError.notFound("No resource at \(path); GET /openapi.json lists them.")
        }
    }

    private func authorize(_ request: HTTPRequest) throws {
        guard let token = configuration.token else { return }
        guard let header = request.headers["authorization"], header == "Bearer \(token)" else {
            throw ServerError.unauthorized
        }
    }

    // MARK: Tasks

    /// `POST /v1/{task}`: one image, IMAGE mode, on a pooled instance.
    private func runImage(_ endpoint: TaskEndpoint, _ request: HTTPRequest) throws -> JSONValue {
        let (arguments, maskImages) = try endpoint.parse(request.query)
        try requireModel(endpoint)
        let image = try decodeImage(request)
        let key = endpoint.name + "?" + request.query.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "&")
        let runner =
            try pool.take(key) ?? endpoint.makeRunner(arguments, context, .image, configuration.threads, maskImages)
        defer { pool.giveBack(runner, key: key) }
        return try runner.run(image, timestamp: nil)
    }

    private func requireModel(_ endpoint: TaskEndpoint) throws {
        let directory = ModelStore(explicit: nil, context: context).directory
        guard endpoint.modelFiles.contains(where: { FileManager.default.fileExists(atPath: directory + "/" + $0) })
        else {
            throw ServerError.modelUnavailable(
                "The server has no model for \(endpoint.name): \(endpoint.modelFiles.joined(separator: " or ")) "
                    + "is not in \(directory).")
        }
    }

    private func decodeImage(_ request: HTTPRequest) throws -> MPImage {
        guard let type = request.mediaType, ["image/jpeg", "image/png"].contains(type) else {
            throw ServerError.unsupportedMediaType(
                "Send the image as image/jpeg or image/png, not \(request.mediaType ?? "a body without Content-Type").")
        }
        guard !request.body.isEmpty else { throw ServerError.invalidImage("The request has no image in its body.") }
        return try MPImage(data: Data(request.body))
    }

    private func models() -> JSONValue {
        let directory = ModelStore(explicit: nil, context: context).directory
        return .object([
            (
                "models",
                .array(
                    TaskEndpoint.all.map { endpoint in
                        let present = endpoint.modelFiles.first {
                            FileManager.default.fileExists(atPath: directory + "/" + $0)
                        }
                        return .object([
                            ("task", .string(endpoint.name)),
                            ("file", .string(present ?? endpoint.modelFiles.last ?? "")),
                            ("available", .bool(present != nil)),
                        ])
                    })
            )
        ])
    }

    // MARK: Sessions

    /// A session's options as sent: text, numbers or booleans.
    private enum OptionValue: Decodable {
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let integer = try? container.decode(Int.self) {
                self = .text(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .text(String(number))
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    private struct SessionRequest: Decodable {
        var task: String
        var options: [String: OptionValue]?

        private enum CodingKeys: String, CodingKey {
            case task, options
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            task = try container.decode(String.self, forKey: .task)
            // Absent is no options; an explicit null is not an object and is refused.
            if container.contains(.options) {
                options = try container.decode([String: OptionValue].self, forKey: .options)
            }
        }
    }

    /// `POST /v1/sessions`.
    private func openSession(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.mediaType == "application/json" else {
            throw ServerError.unsupportedMediaType("Send the session request as application/json.")
        }
        let body: SessionRequest
        do {
            body = try JSONDecoder().decode(SessionRequest.self, from: Data(request.body))
        } catch {
            throw ServerError.invalidRequest(
                "The body must be {\"task\": NAME, \"options\": {name: value}} with a task name and text, number or "
                    + "true/false values.")
        }
        guard let endpoint = TaskEndpoint.named(body.task) else {
            throw ServerError.invalidRequest(
                "No task '\(body.task)'; the tasks are " + TaskEndpoint.all.map(\.name).joined(separator: ", ") + ".")
        }
        let options = (body.options ?? [:]).map { name, value -> (name: String, value: String) in
            guard case .text(let text) = value else { return (name, "") }
            return (name, text)
        }
        .sorted { $0.name < $1.name }
        let (arguments, maskImages) = try endpoint.parse(options)
        try requireModel(endpoint)
        let runner = try endpoint.makeRunner(arguments, context, .video, configuration.threads, maskImages)
        let session = try sessions.add(task: endpoint.name, options: options, runner: runner)
        return .json(
            .object([
                ("id", .string(session.id)), ("task", .string(endpoint.name)),
                ("options", .object(options.map { ($0.name, .string($0.value)) })),
            ]), status: 201)
    }

    /// `POST /v1/sessions/{id}/frames?timestampInMilliseconds=T`.
    private func sessionFrame(_ request: HTTPRequest, id: String) throws -> HTTPResponse {
        let session = try sessions.session(id)
        for (name, _) in request.query where name != "timestampInMilliseconds" {
            throw ServerError.invalidOption("unknown parameter '\(name)'; frames take only timestampInMilliseconds")
        }
        guard let text = request.query.last(where: { $0.name == "timestampInMilliseconds" })?.value,
            let timestamp = Int(text), timestamp >= 0
        else {
            throw ServerError.invalidRequest("A frame needs ?timestampInMilliseconds=T, a whole number ≥ 0.")
        }
        let image = try decodeImage(request)
        session.lock.lock()
        defer {
            session.lock.unlock()
            sessions.touch(session)
        }
        return .json(try session.runner.run(image, timestamp: timestamp))
    }
}
