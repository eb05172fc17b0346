/// The OpenAPI 3.1 document `GET /openapi.json` answers, made from the same endpoint and
/// parameter tables the server routes and checks requests with, so the two cannot drift.
enum OpenAPIDocument {
    /// The document; with `authenticated`, every operation but the page needs the bearer token.
    static func make(authenticated: Bool) -> JSONValue {
        var paths: [(String, JSONValue)] = [
            ("/", .object([("get", page())])),
            ("/healthz", .object([("get", simpleGet("healthz", "Liveness", schema: healthSchema))])),
            (
                "/metrics",
                .object([
                    (
                        "get",
                        operation(
                            "metrics", "Prometheus metrics", parameters: [], body: nil,
                            responses: [("200", content("text/plain", schema: .object([("type", .string("string"))])))]
                                + errors(["401", "413"]))
                    )
                ])
            ),
            (
                "/openapi.json",
                .object([("get", simpleGet("openapi", "This document", schema: .object([("type", .string("object"))])))]
                )
            ),
            ("/v1/models", .object([("get", simpleGet("models", "The models each task uses", schema: modelsSchema))])),
        ]
        for endpoint in TaskEndpoint.all {
            paths.append(
                (
                    "/v1/\(endpoint.name)",
                    .object([
                        (
                            "post",
                            operation(
                                "detect-\(endpoint.name)", endpoint.summary,
                                parameters: endpoint.parameters.map(parameter), body: imageBody,
                                responses: [("200", content("application/json", schema: resultSchema(endpoint.name)))]
                                    + errors(["400", "401", "413", "415", "503"]))
                        )
                    ])
                ))
        }
        paths.append(
            (
                "/v1/sessions",
                .object([
                    (
                        "post",
                        operation(
                            "open-session", "Opens a tracking session (VIDEO mode) of one task", parameters: [],
                            body: .object([
                                ("required", .bool(true)),
                                (
                                    "content",
                                    .object([("application/json", .object([("schema", sessionRequestSchema)]))])
                                ),
                            ]),
                            responses: [("201", content("application/json", schema: sessionSchema))]
                                + errors(["400", "401", "413", "415", "429", "503"]))
                    )
                ])
            ))
        let sessionID = JSONValue.object([
            ("name", .string("id")), ("in", .string("path")), ("required", .bool(true)),
            ("schema", .object([("type", .string("string"))])),
        ])
        paths.append(
            (
                "/v1/sessions/{id}",
                .object([
                    (
                        "delete",
                        operation(
                            "close-session", "Closes a session", parameters: [sessionID], body: nil,
                            responses: [("204", .object([("description", .string("Closed"))]))]
                                + errors(["401", "404", "413"]))
                    )
                ])
            ))
        let timestamp = JSONValue.object([
            ("name", .string("timestampInMilliseconds")), ("in", .string("query")), ("required", .bool(true)),
            ("schema", .object([("type", .string("integer")), ("minimum", .int(0))])),
        ])
        paths.append(
            (
                "/v1/sessions/{id}/frames",
                .object([
                    (
                        "post",
                        operation(
                            "session-frame", "Runs one video frame through the session's task",
                            parameters: [sessionID, timestamp], body: imageBody,
                            responses: [
                                ("200", content("application/json", schema: resultSchema(nil)))
                            ] + errors(["400", "401", "404", "413", "415"]))
                    )
                ])
            ))
        var document: [(String, JSONValue)] = [
            ("openapi", .string("3.1.0")),
            (
                "info",
                .object([
                    ("title", .string("VisionTasks")), ("version", .string(CLI.version)),
                    (
                        "description",
                        .string(
                            "MediaPipe-style vision tasks over HTTP: vision-tasks serve (docs/SERVER.md). Answers are "
                                + "the JSON objects the vision-tasks commands print.")
                    ),
                ])
            ),
            ("paths", .object(paths)),
            ("components", components(authenticated)),
        ]
        if authenticated { document.append(("security", .array([.object([("bearer", .array([]))])]))) }
        return .object(document)
    }

    // MARK: Pieces

    private static func components(_ authenticated: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [("schemas", .object([("Error", errorSchema)]))]
        if authenticated {
            fields.append(
                (
                    "securitySchemes",
                    .object([("bearer", .object([("type", .string("http")), ("scheme", .string("bearer"))]))])
                ))
        }
        return .object(fields)
    }

    private static func page() -> JSONValue {
        .object([
            ("operationId", .string("page")), ("summary", .string("The live page")),
            ("security", .array([.object([])])),
            (
                "responses",
                .object(
                    [("200", content("text/html", schema: .object([("type", .string("string"))])))] + errors(["413"]))
            ),
        ])
    }

    private static func simpleGet(_ id: String, _ summary: String, schema: JSONValue) -> JSONValue {
        operation(
            id, summary, parameters: [], body: nil,
            responses: [("200", content("application/json", schema: schema))] + errors(["401", "413"]))
    }

    private static func operation(
        _ id: String, _ summary: String, parameters: [JSONValue], body: JSONValue?, responses: [(String, JSONValue)]
    ) -> JSONValue {
        var fields: [(String, JSONValue)] = [("operationId", .string(id)), ("summary", .string(summary))]
        if !parameters.isEmpty { fields.append(("parameters", .array(parameters))) }
        if let body { fields.append(("requestBody", body)) }
        fields.append(("responses", .object(responses)))
        return .object(fields)
    }

    private static func content(_ type: String, schema: JSONValue) -> JSONValue {
        .object([("description", .string("OK")), ("content", .object([(type, .object([("schema", schema)]))]))])
    }

    private static func errors(_ statuses: [String]) -> [(String, JSONValue)] {
        statuses.map { status in
            (
                status,
                .object([
                    ("description", .string("Error (docs/SERVER.md)")),
                    (
                        "content",
                        .object([
                            (
                                "application/json",
                                .object([("schema", .object([("$ref", .string("#/components/schemas/Error"))]))])
                            )
                        ])
                    ),
                ])
            )
        }
    }

    private static func parameter(_ parameter: ServerParameter) -> JSONValue {
        var schema: [(String, JSONValue)]
        switch parameter.kind {
        case .integer(let minimum, let maximum):
            schema = [("type", .string("integer"))]
            if let minimum { schema.append(("minimum", .int(minimum))) }
            if let maximum { schema.append(("maximum", .int(maximum))) }
        case .number(let minimum, let maximum):
            schema = [("type", .string("number"))]
            if let minimum { schema.append(("minimum", .double(minimum))) }
            if let maximum { schema.append(("maximum", .double(maximum))) }
        case .boolean:
            schema = [("type", .string("boolean"))]
        case .string:
            schema = [("type", .string("string"))]
        }
        return .object([
            ("name", .string(parameter.name)), ("in", .string("query")), ("required", .bool(false)),
            ("description", .string(parameter.summary)), ("schema", .object(schema)),
        ])
    }

    private static let imageBody = JSONValue.object([
        ("required", .bool(true)),
        (
            "content",
            .object(
                ["image/jpeg", "image/png"].map {
                    (
                        $0,
                        .object([("schema", .object([("type", .string("string")), ("contentMediaType", .string($0))]))])
                    )
                })
        ),
    ])

    private static let errorSchema = JSONValue.object([
        ("type", .string("object")), ("required", .array([.string("error")])),
        (
            "properties",
            .object([
                (
                    "error",
                    .object([
                        ("type", .string("object")), ("required", .array([.string("code"), .string("message")])),
                        (
                            "properties",
                            .object([
                                ("code", .object([("type", .string("string"))])),
                                ("message", .object([("type", .string("string"))])),
                            ])
                        ),
                    ])
                )
            ])
        ),
    ])

    private static let healthSchema = JSONValue.object([
        ("type", .string("object")), ("required", .array([.string("status")])),
        ("properties", .object([("status", .object([("const", .string("ok"))]))])),
    ])

    private static let modelsSchema = JSONValue.object([
        ("type", .string("object")), ("required", .array([.string("models")])),
        (
            "properties",
            .object([
                (
                    "models",
                    .object([
                        ("type", .string("array")),
                        (
                            "items",
                            .object([
                                ("type", .string("object")),
                                ("required", .array([.string("task"), .string("file"), .string("available")])),
                                (
                                    "properties",
                                    .object([
                                        ("task", .object([("type", .string("string"))])),
                                        ("file", .object([("type", .string("string"))])),
                                        ("available", .object([("type", .string("boolean"))])),
                                    ])
                                ),
                            ])
                        ),
                    ])
                )
            ])
        ),
    ])

    private static let sessionRequestSchema = JSONValue.object([
        ("type", .string("object")), ("required", .array([.string("task")])),
        (
            "properties",
            .object([
                ("task", .object([("enum", .array(TaskEndpoint.all.map { .string($0.name) }))])),
                (
                    "options",
                    .object([
                        ("type", .string("object")),
                        (
                            "additionalProperties",
                            .object([("type", .array([.string("string"), .string("number"), .string("boolean")]))])
                        ),
                    ])
                ),
            ])
        ),
    ])

    private static let sessionSchema = JSONValue.object([
        ("type", .string("object")), ("required", .array([.string("id"), .string("task"), .string("options")])),
        (
            "properties",
            .object([
                ("id", .object([("type", .string("string"))])), ("task", .object([("type", .string("string"))])),
                ("options", .object([("type", .string("object"))])),
            ])
        ),
    ])

    /// The keys each task's answer always has (besides the header), and the type of each.
    private static func resultSchema(_ task: String?) -> JSONValue {
        var properties: [(String, JSONValue)] = [
            ("file", .object([("type", .string("string"))])), ("width", .object([("type", .string("integer"))])),
            ("height", .object([("type", .string("integer"))])),
            ("timestampInMilliseconds", .object([("type", .string("integer"))])),
        ]
        var required = ["file", "width", "height", "timestampInMilliseconds"]
        let array = JSONValue.object([("type", .string("array"))])
        let keys: [String]
        switch task {
        case "pose": keys = ["landmarks", "worldLandmarks"]
        case "hands": keys = ["handedness", "landmarks", "worldLandmarks"]
        case "objects", "faces": keys = ["detections"]
        case "face-landmarks": keys = ["faceLandmarks"]
        default: keys = []
        }
        for key in keys {
            properties.append((key, array))
            required.append(key)
        }
        return .object([
            ("type", .string("object")), ("required", .array(required.map(JSONValue.string))),
            ("properties", .object(properties)),
        ])
    }
}
