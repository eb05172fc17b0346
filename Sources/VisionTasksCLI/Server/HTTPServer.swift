import Foundation

#if canImport(CMicroHTTPD)
    import CMicroHTTPD
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// An HTTP/1.1 server on GNU libmicrohttpd: the library parses requests and runs the
    /// connections on a pool of threads; each complete request goes to `handler` on one of those
    /// threads, and its answer is sent back.
    ///
    /// The listening socket is made here (so that port 0 can pick a free port and the address can
    /// be any IPv4 host) and handed to the library. Bodies larger than `maxBodyBytes` are read and
    /// dropped; the handler sees the request with ``HTTPRequest/bodyLimitExceeded`` set.
    /// ``stop()`` stops accepting, waits for the requests under way to be answered, then shuts the
    /// library down.
    package final class HTTPServer: @unchecked Sendable {
        // @unchecked: `daemon` is set in init and cleared once in stop(); the counters are
        // guarded by `lock`; the handler is Sendable.
        package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

        /// The port the server listens on.
        package let port: Int
        private let handler: Handler
        private let maxBodyBytes: Int
        private var daemon: OpaquePointer?
        private let lock = NSCondition()
        private var openRequests = 0
        private var stopped = false

        /// Per-request state kept by the library between the calls of one request.
        private final class RequestState {
            var body: [UInt8] = []
            var tooLarge = false
        }

        /// Starts listening on `host:port` (IPv4; port 0 picks a free one) with `threads` threads.
        package init(host: String, port: Int, threads: Int, maxBodyBytes: Int, handler: @escaping Handler) throws {
            self.handler = handler
            self.maxBodyBytes = maxBodyBytes
            let socket = try Self.listeningSocket(host: host, port: port)
            self.port = socket.port
            let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_EPOLL.rawValue)
            let context = Unmanaged.passUnretained(self).toOpaque()
            let completed: MHD_RequestCompletedCallback = { cls, _, state, _ in
                guard let cls, let state, let pointer = state.pointee else { return }
                Unmanaged<RequestState>.fromOpaque(pointer).release()
                state.pointee = nil
                Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().requestFinished()
            }
            let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, state in
                guard let cls, let connection, let state, let uploadSize else { return MHD_Result.NO }
                let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
                return server.access(
                    connection: connection, url: url, method: method, upload: upload, uploadSize: uploadSize,
                    state: state)
            }
            let options: [CVarArg] = [
                MHD_OPTION.LISTEN_SOCKET.rawValue, socket.descriptor,
                MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(max(1, threads)),
                MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(60),
                MHD_OPTION.NOTIFY_COMPLETED.rawValue,
                Int(bitPattern: unsafeBitCast(completed, to: UnsafeRawPointer.self)),
                Int(bitPattern: context),
                MHD_OPTION.END.rawValue,
            ]
            daemon = withVaList(options) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, access, context, arguments)
            }
            guard daemon != nil else {
                close(socket.descriptor)
                throw CLIError.failed("could not start the HTTP server on \(host):\(socket.port)")
            }
        }

        deinit { stop() }

        /// Stops accepting connections, waits (at most `timeout` seconds) until every request under
        /// way has been answered, then stops the library's threads.
        package func stop(timeout: TimeInterval = 30) {
            lock.lock()
            guard !stopped, let daemon else {
                lock.unlock()
                return
            }
            stopped = true
            lock.unlock()
            let listener = MHD_quiesce_daemon(daemon)
            if listener >= 0 { close(listener) }
            let deadline = Date().addingTimeInterval(timeout)
            lock.lock()
            while openRequests > 0, lock.wait(until: deadline) {}
            lock.unlock()
            MHD_stop_daemon(daemon)
            self.daemon = nil
        }

        // MARK: The library's callbacks

        private func requestFinished() {
            lock.lock()
            openRequests -= 1
            lock.broadcast()
            lock.unlock()
        }

        /// The access handler: called once when the headers arrive, once per body chunk, and
        /// once more when the body is complete, which is when the request is answered.
        private func access(
            connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
            state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        ) -> MHD_Result {
            guard let pointer = state.pointee else {
                let fresh = RequestState()
                if let length = header(connection, "Content-Length").flatMap({ Int($0) }), length > maxBodyBytes {
                    fresh.tooLarge = true
                }
                state.pointee = Unmanaged.passRetained(fresh).toOpaque()
                lock.lock()
                openRequests += 1
                lock.unlock()
                return MHD_Result.YES
            }
            let request = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
            if uploadSize.pointee > 0 {
                if !request.tooLarge, let upload {
                    if request.body.count + uploadSize.pointee > maxBodyBytes {
                        request.tooLarge = true
                        request.body = []
                    } else {
                        upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                            request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                        }
                    }
                }
                uploadSize.pointee = 0
                return MHD_Result.YES
            }
            let rawURL = url.map { String(cString: $0) } ?? "/"
            let path = String(rawURL.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
            let response = handler(
                HTTPRequest(
                    method: method.map { String(cString: $0) } ?? "GET", path: path.isEmpty ? "/" : path,
                    query: values(connection, kind: MHD_ValueKind.GET_ARGUMENT_KIND),
                    headers: Dictionary(
                        values(connection, kind: MHD_ValueKind.HEADER_KIND).map { ($0.name.lowercased(), $0.value) },
                        uniquingKeysWith: { first, _ in first }),
                    body: request.tooLarge ? [] : request.body,
                    bodyLimitExceeded: request.tooLarge ? maxBodyBytes : nil))
            request.body = []
            return send(response, on: connection)
        }

        private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
            let made = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                    MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
            guard let made else { return MHD_Result.NO }
            for (name, value) in response.headers {
                _ = MHD_add_response_header(made, name, value)
            }
            let result = MHD_queue_response(connection, UInt32(response.status), made)
            MHD_destroy_response(made)
            return result
        }

        private func header(_ connection: OpaquePointer, _ name: String) -> String? {
            MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
        }

        /// Every value of `kind` (headers or decoded query arguments), in the request's order.
        private func values(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String)] {
            final class Collected {
                var pairs: [(name: String, value: String)] = []
            }
            let collected = Collected()
            let iterator: MHD_KeyValueIterator = { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue().pairs.append(
                    (String(cString: key), value.map { String(cString: $0) } ?? ""))
                return MHD_Result.YES
            }
            withExtendedLifetime(collected) {
                _ = MHD_get_connection_values(
                    connection, kind, iterator, Unmanaged.passUnretained(collected).toOpaque())
            }
            return collected.pairs
        }

        // MARK: The listening socket

        private static func listeningSocket(host: String, port: Int) throws -> (descriptor: Int32, port: Int) {
            guard (0...65535).contains(port) else { throw CLIError.usage("--port must be 0…65535") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let name = host == "localhost" ? "127.0.0.1" : host
            guard inet_pton(AF_INET, name, &address.sin_addr) == 1 else {
                throw CLIError.usage("--host must be an IPv4 address (such as 127.0.0.1 or 0.0.0.0), not '\(host)'")
            }
            #if canImport(Glibc)
                let streamType = Int32(SOCK_STREAM.rawValue)
            #else
                let streamType = SOCK_STREAM
            #endif
            let descriptor = socket(AF_INET, streamType, 0)
            guard descriptor >= 0 else { throw CLIError.failed("could not open a socket: \(errnoText())") }
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(descriptor, 128) == 0 else {
                let reason = errnoText()
                close(descriptor)
                throw CLIError.failed("could not listen on \(host):\(port): \(reason)")
            }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
        }

        private static func errnoText() -> String { String(cString: strerror(errno)) }
    }
#else
    /// Where libmicrohttpd is not available (Apple platforms without it), `serve` says so.
    package final class HTTPServer: Sendable {
        package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
        package let port = 0

        package init(host: String, port: Int, threads: Int, maxBodyBytes: Int, handler: @escaping Handler) throws {
            throw CLIError.failed("vision-tasks serve needs libmicrohttpd, which this build does not have")
        }

        package func stop(timeout: TimeInterval = 30) {}
    }
#endif
