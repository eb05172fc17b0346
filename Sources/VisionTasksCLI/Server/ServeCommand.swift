import Dispatch
import Foundation

/// `vision-tasks serve [--host 127.0.0.1] [--port 8080] [--models DIR] [--threads N] [--workers N]
/// [--max-body-mb 20] [--token T] [--session-idle-seconds 300]`: the tasks over HTTP, and the live
/// page (docs/SERVER.md).
package enum ServeCommand: Command {
    package static let name = "serve"
    package static let summary = "serve every task over HTTP (JSON API, sessions, metrics) and a live page"
    package static let usage = """
        vision-tasks serve [--host 127.0.0.1] [--port 8080] [--models DIR] [--threads N] [--workers N]
                           [--max-body-mb 20] [--token T] [--session-idle-seconds 300]
          POST /v1/{pose,hands,objects,faces,face-landmarks,segment} with a JPEG or PNG body, options as query
          parameters named like the command's flags; sessions for tracking at /v1/sessions; GET / is the live
          page, /openapi.json describes the API, /metrics, /healthz, /v1/models. Loopback only unless --host
          says otherwise (0.0.0.0: every interface); --port 0 picks a free port. SIGINT/SIGTERM: answer the
          requests under way, then exit 0.
        """

    static let options: Set<String> = [
        "host", "port", "models", "threads", "workers", "max-body-mb", "token", "session-idle-seconds",
    ]

    package static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try Arguments(arguments, flags: [], options: options)
        guard parsed.positionals.isEmpty else { throw CLIError.usage("serve takes no positional arguments") }
        var configuration = VisionService.Configuration(modelsDirectory: parsed.value("models"))
        configuration.threads = try parsed.integer("threads", in: 1...256) ?? 1
        configuration.workers =
            try parsed.integer("workers", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        configuration.token = parsed.value("token")
        if configuration.token?.isEmpty == true { throw CLIError.usage("--token must not be empty") }
        configuration.sessionIdleSeconds = try parsed.number("session-idle-seconds", in: 1...86_400) ?? 300
        let maxBody = try parsed.number("max-body-mb", in: 0.001...4096) ?? 20
        let host = parsed.value("host") ?? "127.0.0.1"
        // Signals first: a SIGINT or SIGTERM that comes as soon as the address is printed must
        // already stop the server, not end the process or be lost.
        let stop = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
        }
        let service = VisionService(configuration: configuration, context: context)
        let server = try HTTPServer(
            host: host, port: try parsed.integer("port", in: 0...65535) ?? 8080, threads: configuration.workers,
            maxBodyBytes: Int(maxBody * 1_048_576), handler: service.handle)
        context.console.log("serve: listening on http://\(host):\(server.port)")
        stop.wait()
        context.console.log("serve: stopping")
        server.stop()
        context.console.log("serve: stopped")
        return 0
    }
}
