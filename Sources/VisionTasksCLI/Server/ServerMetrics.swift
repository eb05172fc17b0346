import Foundation

/// Request counts, errors and latency per endpoint, rendered in Prometheus' text format 0.0.4.
final class ServerMetrics: @unchecked Sendable {
    // @unchecked: every field is touched only under `lock`.
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Latency {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private let lock = NSLock()
    private var requests: [String: [Int: Int]] = [:]
    private var errors: [String: Int] = [:]
    private var latencies: [String: Latency] = [:]

    /// Records one answered request.
    func record(endpoint: String, status: Int, seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        requests[endpoint, default: [:]][status, default: 0] += 1
        if status >= 400 { errors[endpoint, default: 0] += 1 }
        var latency = latencies[endpoint] ?? Latency()
        for (index, bound) in Self.buckets.enumerated() where seconds <= bound { latency.counts[index] += 1 }
        latency.sum += seconds
        latency.count += 1
        latencies[endpoint] = latency
    }

    /// The metrics as Prometheus text.
    func render(openSessions: Int) -> String {
        lock.lock()
        defer { lock.unlock() }
        var lines: [String] = []
        lines.append("# HELP vision_tasks_requests_total Requests answered, by endpoint and HTTP status.")
        lines.append("# TYPE vision_tasks_requests_total counter")
        for endpoint in requests.keys.sorted() {
            for (status, count) in requests[endpoint, default: [:]].sorted(by: { $0.key < $1.key }) {
                lines.append("vision_tasks_requests_total{endpoint=\"\(endpoint)\",status=\"\(status)\"} \(count)")
            }
        }
        lines.append("# HELP vision_tasks_request_errors_total Requests answered with a 4xx or 5xx status.")
        lines.append("# TYPE vision_tasks_request_errors_total counter")
        for endpoint in requests.keys.sorted() {
            lines.append("vision_tasks_request_errors_total{endpoint=\"\(endpoint)\"} \(errors[endpoint] ?? 0)")
        }
        lines.append("# HELP vision_tasks_request_duration_seconds Time from a complete request to its answer.")
        lines.append("# TYPE vision_tasks_request_duration_seconds histogram")
        for endpoint in latencies.keys.sorted() {
            guard let latency = latencies[endpoint] else { continue }
            for (index, bound) in Self.buckets.enumerated() {
                lines.append(
                    "vision_tasks_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"\(bound)\"} "
                        + "\(latency.counts[index])")
            }
            lines.append(
                "vision_tasks_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"+Inf\"} \(latency.count)")
            lines.append("vision_tasks_request_duration_seconds_sum{endpoint=\"\(endpoint)\"} \(latency.sum)")
            lines.append("vision_tasks_request_duration_seconds_count{endpoint=\"\(endpoint)\"} \(latency.count)")
        }
        lines.append("# HELP vision_tasks_sessions_open Tracking sessions open now.")
        lines.append("# TYPE vision_tasks_sessions_open gauge")
        lines.append("vision_tasks_sessions_open \(openSessions)")
        return lines.joined(separator: "\n") + "\n"
    }
}
