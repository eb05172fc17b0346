import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasksCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `vision-tasks serve` (docs/SERVER.md): the answers equal the commands' JSON, bad input is a 4xx
/// with the error shape, sessions track like `--video`, the OpenAPI document matches the routes,
/// and the HTTP layer serves concurrent requests and stops cleanly.
@Suite("serve", .serialized)
struct ServeCommandTests {
    static var models: String? { SharedData.path("models") }

    static func service(token: String? = nil, models: String? = ServeCommandTests.models) -> VisionService {
        var configuration = VisionService.Configuration(modelsDirectory: models)
        configuration.workers = 2
        configuration.token = token
        return VisionService(
            configuration: configuration,
            context: CommandContext(
                console: RecordingConsole().console, environment: [:],
                currentDirectory: FileManager.default.currentDirectoryPath))
    }

    static func image(_ name: String) throws -> (path: String, bytes: [UInt8])? {
        guard let path = SharedData.path("images/decoded/\(name).png") else { return nil }
        return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func post(
        _ path: String, _ query: [(String, String)] = [], type: String? = "image/png", body: [UInt8],
        headers: [String: String] = [:]
    ) -> HTTPRequest {
        var all = headers
        if let type { all["content-type"] = type }
        return HTTPRequest(
            method: "POST", path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: all, body: body)
    }

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// Checks the error shape and returns the code.
    static func errorCode(_ response: HTTPResponse) throws -> String {
        let error = try #require(try object(response)["error"] as? [String: Any])
        #expect(error["message"] is String)
        return try #require(error["code"] as? String)
    }

    // MARK: Answers

    /// Each task's answer is the object its command prints for the same picture and options.
    @Test func eachTaskAnswersWhatItsCommandPrints() throws {
        guard let models = Self.models else { return print("skipping: ../shared/models not found") }
        let service = Self.service()
        let cases: [(task: String, image: String, flags: [String], query: [(String, String)])] = [
            (
                "pose", "astronaut", ["--segmentation", "--num-poses", "2"],
                [("segmentation", "true"), ("num-poses", "2")]
            ),
            ("hands", "hand_thumb_up", [], []),
            ("objects", "od_test_image", ["--max-results", "3"], [("max-results", "3")]),
            ("faces", "grace_hopper", ["--min-detection-confidence", "0.6"], [("min-detection-confidence", "0.6")]),
            ("face-landmarks", "business-person", ["--blendshapes"], [("blendshapes", "true")]),
            ("segment", "astronaut", ["--category-mask"], [("category-mask", "true")]),
        ]
        for item in cases {
            let image = try #require(try Self.image(item.image))
            let response = service.handle(Self.post("/v1/\(item.task)", item.query, body: image.bytes))
            #expect(response.status == 200, "\(item.task): \(String(decoding: response.body, as: UTF8.self))")
            let run = runCLI([item.task, image.path] + item.flags, environment: ["VISION_TASKS_MODELS": models])
            #expect(run.status == 0, "\(run.errors)")
            var expected = try #require(
                try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            expected["file"] = "-"
            #expect(NSDictionary(dictionary: try Self.object(response)).isEqual(to: expected), "\(item.task)")
            // The same request again (now on a pooled instance) gives the same answer: no state.
            let again = service.handle(Self.post("/v1/\(item.task)", item.query, body: image.bytes))
            #expect(again.body == response.body, "\(item.task) answered differently the second time")
        }
    }

    /// `mask-images=true` (a server option, for the page) adds each mask as a base64 PNG whose
    /// pixels are the mask's values, and changes nothing else in the answer.
    @Test func maskImagesCarryTheMasksPixels() throws {
        guard let image = try Self.image("astronaut") else { return print("skipping: ../shared not found") }
        let service = Self.service()
        for (task, query) in [
            ("pose", [("segmentation", "true")]), ("segment", [("category-mask", "true")]),
        ] {
            let plain = try Self.object(service.handle(Self.post("/v1/\(task)", query, body: image.bytes)))
            var withMasks = try Self.object(
                service.handle(Self.post("/v1/\(task)", query + [("mask-images", "true")], body: image.bytes)))
            let masks = try #require(withMasks.removeValue(forKey: "maskImages") as? [[String: Any]])
            #expect(NSDictionary(dictionary: withMasks).isEqual(to: plain), "\(task)")
            let summaries =
                (plain["segmentationMasks"] as? [[String: Any]]) ?? (plain["confidenceMasks"] as? [[String: Any]]) ?? []
            #expect(masks.count == summaries.count + (task == "segment" ? 1 : 0))
            for (mask, summary) in zip(masks, summaries) {
                let text = try #require(mask["png"] as? String)
                let png = try #require(Data(base64Encoded: text))
                let bitmap = try ImageDecoder.decode(png).bitmap
                #expect(bitmap.width == mask["width"] as? Int && bitmap.height == mask["height"] as? Int)
                let step = bitmap.layout.bytesPerPixel
                let sum = bitmap.withUnsafeBytes { bytes in
                    stride(from: 0, to: bytes.count, by: step).reduce(0.0) { $0 + Double(bytes[$1]) }
                }
                let mean = sum / Double(bitmap.width * bitmap.height) / 255
                let expected = try #require(summary["mean"] as? Double)
                #expect(abs(mean - expected) < 0.5 / 255 + 1e-6, "\(task): \(mean) vs \(expected)")
            }
        }
        let refused = service.handle(Self.post("/v1/hands", [("mask-images", "true")], body: image.bytes))
        #expect(refused.status == 400)
    }

    /// A session runs its frames in VIDEO mode with tracking: the answers equal `--video
    /// --frame-ms 33` over the same frames, and a timestamp that does not increase is refused.
    @Test func sessionFramesTrackLikeTheVideoCommand() throws {
        guard let models = Self.models, let frames = SharedData.path("images/frames/gesture_test_video") else {
            return print("skipping: ../shared not found")
        }
        let service = Self.service()
        let opened = service.handle(
            Self.post(
                "/v1/sessions", type: "application/json",
                body: Array(#"{"task": "face-landmarks", "options": {"num-faces": 1, "blendshapes": true}}"#.utf8)))
        #expect(opened.status == 201)
        let id = try #require(try Self.object(opened)["id"] as? String)
        let paths = (0..<4).map { String(format: "\(frames)/%03d.png", $0) }
        let run = runCLI(
            ["face-landmarks", "--video", "--frame-ms", "33", "--blendshapes"] + paths,
            environment: ["VISION_TASKS_MODELS": models])
        let lines = run.output.split(separator: "\n")
        try #require(lines.count == 4, "\(run.errors)")
        for (index, path) in paths.enumerated() {
            let body = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let answer = service.handle(
                Self.post("/v1/sessions/\(id)/frames", [("timestampInMilliseconds", String(index * 33))], body: body))
            #expect(answer.status == 200)
            var expected = try #require(
                try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [String: Any])
            expected["file"] = "-"
            #expect(NSDictionary(dictionary: try Self.object(answer)).isEqual(to: expected), "frame \(index)")
        }
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: paths[0])))
        let again = service.handle(
            Self.post("/v1/sessions/\(id)/frames", [("timestampInMilliseconds", "33")], body: body))
        #expect(again.status == 400)
        #expect(try Self.errorCode(again) == "invalidRequest")
        #expect(service.handle(HTTPRequest(method: "DELETE", path: "/v1/sessions/\(id)")).status == 204)
        let closed = service.handle(
            Self.post("/v1/sessions/\(id)/frames", [("timestampInMilliseconds", "99")], body: body))
        #expect(closed.status == 404)
        #expect(try Self.errorCode(closed) == "notFound")
    }

    // MARK: Bad input

    /// Every kind of bad request is a 4xx with `{"error": {"code", "message"}}`, never a 5xx.
    @Test func badRequestsAreFourHundredsWithTheErrorShape() throws {
        guard let image = try Self.image("astronaut") else { return print("skipping: ../shared not found") }
        let service = Self.service()
        let json = "application/json"
        let cases: [(HTTPRequest, Int, String)] = [
            (Self.post("/v1/pose", body: Array("not an image".utf8)), 400, "invalidImage"),
            (Self.post("/v1/pose", body: Array(image.bytes.prefix(2000))), 400, "invalidImage"),
            (Self.post("/v1/pose", body: []), 400, "invalidImage"),
            (Self.post("/v1/pose", type: "text/plain", body: image.bytes), 415, "unsupportedMediaType"),
            (Self.post("/v1/pose", type: nil, body: image.bytes), 415, "unsupportedMediaType"),
            (Self.post("/v1/pose", [("bogus", "1")], body: image.bytes), 400, "invalidOption"),
            (Self.post("/v1/pose", [("num-poses", "many")], body: image.bytes), 400, "invalidOption"),
            (
                Self.post("/v1/pose", [("min-pose-detection-confidence", "1.5")], body: image.bytes), 400,
                "invalidOption"
            ),
            (Self.post("/v1/pose", [("segmentation", "maybe")], body: image.bytes), 400, "invalidOption"),
            (Self.post("/v1/objects", [("max-results", "0")], body: image.bytes), 400, "invalidOption"),
            (Self.post("/v1/faces", [("min-suppression-threshold", "-0.1")], body: image.bytes), 400, "invalidOption"),
            (Self.post("/v1/nope", body: image.bytes), 404, "notFound"),
            (HTTPRequest(method: "GET", path: "/v1/pose"), 405, "methodNotAllowed"),
            (HTTPRequest(method: "PUT", path: "/healthz"), 405, "methodNotAllowed"),
            (HTTPRequest(method: "GET", path: "/nowhere"), 404, "notFound"),
            (Self.post("/v1/sessions", type: "text/plain", body: Array("{}".utf8)), 415, "unsupportedMediaType"),
            (Self.post("/v1/sessions", type: json, body: Array("{".utf8)), 400, "invalidRequest"),
            (Self.post("/v1/sessions", type: json, body: Array(#"{"task": "nope"}"#.utf8)), 400, "invalidRequest"),
            (
                Self.post("/v1/sessions", type: json, body: Array(#"{"task": "pose", "options": null}"#.utf8)), 400,
                "invalidRequest"
            ),
            (Self.post("/v1/pose", [("num-poses", "99999999999999999999")], body: image.bytes), 400, "invalidOption"),
            (HTTPRequest(method: "GET", path: "/healthz", bodyLimitExceeded: 10), 413, "payloadTooLarge"),
            (
                Self.post("/v1/sessions", type: json, body: Array(#"{"task": "pose", "options": {"x": 1}}"#.utf8)),
                400, "invalidOption"
            ),
            (
                Self.post("/v1/sessions/none/frames", [("timestampInMilliseconds", "0")], body: image.bytes), 404,
                "notFound"
            ),
        ]
        for (request, status, code) in cases {
            let response = service.handle(request)
            let label = "\(request.method) \(request.path) \(request.query)"
            #expect(response.status == status, "\(label): \(String(decoding: response.body, as: UTF8.self))")
            #expect(try Self.errorCode(response) == code, "\(label)")
        }
        #expect(
            service.handle(HTTPRequest(method: "GET", path: "/v1/pose")).headers.contains { $0 == ("Allow", "POST") })
        // The fuzzers' image corpus: each input decodes or is refused, never a 5xx.
        var answered = 0
        for url in FuzzCorpus.inputs("jpeg") + FuzzCorpus.inputs("png") {
            let type = url.path.contains("/jpeg/") ? "image/jpeg" : "image/png"
            let bytes = Array(try Data(contentsOf: url))
            let response = service.handle(Self.post("/v1/faces", type: type, body: bytes))
            #expect([200, 400].contains(response.status), "\(url.lastPathComponent): \(response.status)")
            answered += 1
        }
        #expect(answered > 10)
    }

    /// A session idle for longer than `--session-idle-seconds` is closed; one in use is kept.
    @Test func idleSessionsExpire() throws {
        guard let image = try Self.image("grace_hopper") else { return print("skipping: ../shared not found") }
        // The sessions' clock is the test's: advanced by hand, so that a slow host (or a suite
        // holding the threads) cannot make a frame look idle.
        let clock = ManualClock()
        var configuration = VisionService.Configuration(modelsDirectory: Self.models)
        configuration.sessionIdleSeconds = 2
        configuration.clock = { clock.now }
        let service = VisionService(
            configuration: configuration,
            context: CommandContext(
                console: RecordingConsole().console, environment: [:],
                currentDirectory: FileManager.default.currentDirectoryPath))
        let opened = service.handle(
            Self.post("/v1/sessions", type: "application/json", body: Array(#"{"task": "faces"}"#.utf8)))
        let id = try #require(try Self.object(opened)["id"] as? String)
        let frame = { (time: Int) in
            service.handle(
                Self.post("/v1/sessions/\(id)/frames", [("timestampInMilliseconds", String(time))], body: image.bytes))
        }
        #expect(frame(0).status == 200)
        clock.advance(by: 1.9)
        #expect(frame(33).status == 200)  // used within the idle time: kept
        clock.advance(by: 1.9)
        #expect(frame(66).status == 200)  // idle time counts from the last frame
        clock.advance(by: 2.1)
        #expect(frame(99).status == 404)  // idle too long: closed
        let metrics = String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
        #expect(metrics.contains("vision_tasks_sessions_open 0"))
    }

    /// With a token every request but the page needs `Authorization: Bearer TOKEN`.
    @Test func aTokenGuardsEverythingButThePage() throws {
        let service = Self.service(token: "s3cret")
        #expect(service.handle(HTTPRequest(method: "GET", path: "/")).status == 200)
        let denied = service.handle(HTTPRequest(method: "GET", path: "/healthz"))
        #expect(denied.status == 401)
        #expect(try Self.errorCode(denied) == "unauthorized")
        let wrong = service.handle(
            HTTPRequest(method: "GET", path: "/healthz", headers: ["authorization": "Bearer nope"]))
        #expect(wrong.status == 401)
        let allowed = service.handle(
            HTTPRequest(method: "GET", path: "/healthz", headers: ["authorization": "Bearer s3cret"]))
        #expect(allowed.status == 200)
        #expect(service.handle(HTTPRequest(method: "GET", path: "/openapi.json")).status == 401)
    }

    /// A task whose model is missing is the server's fault: 503 naming the file, not a 4xx.
    @Test func aMissingModelIsServiceUnavailable() throws {
        let empty = try temporaryDirectory("serve-models")
        let service = Self.service(models: empty)
        let response = service.handle(Self.post("/v1/faces", body: Array("x".utf8)))
        #expect(response.status == 503)
        #expect(try Self.errorCode(response) == "modelUnavailable")
        let models = try Self.object(service.handle(HTTPRequest(method: "GET", path: "/v1/models")))
        let entries = try #require(models["models"] as? [[String: Any]])
        #expect(entries.count == 6 && entries.allSatisfy { $0["available"] as? Bool == false })
    }

    // MARK: Documents

    /// The OpenAPI document lists exactly the routes the server answers, with each task's
    /// parameters, and its statuses cover what the server answered in these tests.
    @Test func theOpenAPIDocumentDescribesTheRoutes() throws {
        let service = Self.service()
        let document = try Self.object(service.handle(HTTPRequest(method: "GET", path: "/openapi.json")))
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var expected: Set<String> = ["/", "/healthz", "/metrics", "/openapi.json", "/v1/models", "/v1/sessions"]
        expected.formUnion(["/v1/sessions/{id}", "/v1/sessions/{id}/frames"])
        expected.formUnion(TaskEndpoint.all.map { "/v1/\($0.name)" })
        #expect(Set(paths.keys) == expected)
        for endpoint in TaskEndpoint.all {
            let post = try #require(paths["/v1/\(endpoint.name)"]?["post"] as? [String: Any])
            let parameters = try #require(post["parameters"] as? [[String: Any]])
            #expect(parameters.compactMap { $0["name"] as? String } == endpoint.parameters.map(\.name))
            let responses = try #require(post["responses"] as? [String: Any])
            #expect(Set(responses.keys) == ["200", "400", "401", "413", "415", "503"])
            // Every documented parameter is accepted by the server (value of its type).
            for parameter in endpoint.parameters {
                let value: String
                switch parameter.kind {
                case .integer: value = "1"
                case .number: value = "0.5"
                case .boolean: value = "true"
                case .string: value = "person"
                }
                _ = try endpoint.parse([(parameter.name, value)])
            }
        }
    }

    /// `/metrics` counts requests by endpoint and status and times them in a histogram.
    @Test func metricsCountRequestsAndTimeThem() throws {
        let service = Self.service()
        _ = service.handle(HTTPRequest(method: "GET", path: "/healthz"))
        _ = service.handle(HTTPRequest(method: "GET", path: "/healthz"))
        _ = service.handle(HTTPRequest(method: "GET", path: "/v1/pose"))
        let text = String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
        #expect(text.contains(#"vision_tasks_requests_total{endpoint="/healthz",status="200"} 2"#))
        #expect(text.contains(#"vision_tasks_requests_total{endpoint="pose",status="405"} 1"#))
        #expect(text.contains(#"vision_tasks_request_errors_total{endpoint="pose"} 1"#))
        #expect(text.contains(#"vision_tasks_request_duration_seconds_count{endpoint="/healthz"} 2"#))
        #expect(text.contains(#"vision_tasks_request_duration_seconds_bucket{endpoint="/healthz",le="+Inf"} 2"#))
        #expect(text.contains("vision_tasks_sessions_open 0"))
        // A body over the limit is answered by the service too, so it is counted.
        _ = service.handle(Self.post("/v1/pose", body: [], headers: [:]).withLimitExceeded())
        let after = String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
        #expect(after.contains(#"vision_tasks_requests_total{endpoint="pose",status="413"} 1"#))
    }

    @Test func thePageIsOneSelfContainedDocument() throws {
        let response = Self.service().handle(HTTPRequest(method: "GET", path: "/"))
        #expect(response.status == 200)
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("text/html") })
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains("<html"))
        // Nothing is loaded from elsewhere: no external script, style, image or font.
        for pattern in [#"src="http"#, #"href="http"#, "url(http", "@import", #"src="//"#, #"href="//"#] {
            #expect(!page.contains(pattern), "\(pattern)")
        }
    }

    // MARK: The HTTP layer

    /// Real connections: concurrent requests are all answered, a body over the limit is 413, and
    /// stop() answers a request under way before it returns.
    @Test func theServerAnswersConcurrentRequestsAndStopsCleanly() async throws {
        guard let image = try Self.image("astronaut") else { return print("skipping: ../shared not found") }
        let service = Self.service()
        // Signalled when the pose request below reaches the handler, so that stop() is called
        // with it under way (a fixed sleep could stop the server before a slow host accepted it).
        let poseStarted = DispatchSemaphore(value: 0)
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 1_000_000,
            handler: { request in
                if request.path == "/v1/pose" { poseStarted.signal() }
                return service.handle(request)
            })
        let base = "http://127.0.0.1:\(server.port)"
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await Self.send(base + "/v1/faces", body: image.bytes).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        let large = try await Self.send(base + "/v1/faces", body: [UInt8](repeating: 0, count: 1_200_000))
        #expect(large.status == 413)
        #expect(try Self.errorCode(HTTPResponse(status: large.status, body: large.body)) == "payloadTooLarge")
        // A request under way when stop() is called is still answered.
        async let pending = Self.send(base + "/v1/pose?segmentation=true", body: image.bytes)
        let started = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: poseStarted.wait(timeout: .now() + 60)) }
        }
        #expect(started == .success)
        server.stop()
        #expect(try await pending.status == 200)
    }

    /// The command: `--port 0` prints the address, SIGTERM makes it exit 0 after answering.
    @Test func theCommandStopsWithStatusZeroOnSIGTERM() async throws {
        let binary = SharedData.packageRoot.appendingPathComponent(".build/release/vision-tasks").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return print("skipping: \(binary) not built")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0", "--models", try temporaryDirectory("serve-empty")]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        let port = try #require(text.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(text)")
        let health = try await Self.send("http://127.0.0.1:\(port)/healthz", method: "GET", body: [])
        #expect(health.status == 200)
        process.terminate()  // SIGTERM
        // Bounded: a server that ignored the signal fails the test instead of hanging it.
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("serve did not stop within 30 s of SIGTERM")
            return
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    static func send(_ url: String, method: String = "POST", body: [UInt8]) async throws -> (status: Int, body: [UInt8])
    {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        if method == "POST" {
            request.setValue("image/png", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data))
    }
}

extension HTTPRequest {
    fileprivate func withLimitExceeded() -> HTTPRequest {
        var copy = self
        copy.bodyLimitExceeded = 10
        return copy
    }
}

/// A clock for the session store that moves only when told to.
private final class ManualClock: @unchecked Sendable {
    // @unchecked: `time` is guarded by `lock`.
    private let lock = NSLock()
    private var time = Date(timeIntervalSinceReferenceDate: 0)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return time
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        time += seconds
    }
}
