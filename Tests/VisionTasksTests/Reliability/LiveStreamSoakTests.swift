import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Opt-in soak of live-stream mode (not in the default suite): `VT_SOAK_FRAMES=10000` feeds that
/// many frames to a PoseLandmarker (lite model) and checks that resident memory stays flat
/// after warm-up (growth under 5 MB) and that every frame is delivered or counted as dropped.
/// `VT_SOAK_CHECK_RSS=0` skips the memory check (sanitizer builds, whose quarantine and shadow
/// memory grow by design). Commands and measured numbers: docs/RELIABILITY.md.
@Suite("Live-stream soak", .serialized)
struct LiveStreamSoakTests {
    static var frameCount: Int? {
        ProcessInfo.processInfo.environment["VT_SOAK_FRAMES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Resident set size of this process in bytes (Linux /proc/self/statm), or nil elsewhere.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    final class Counter: PoseLandmarkerLiveStreamDelegate, @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var lastTimestamp = -1
        private(set) var delivered = 0
        private(set) var outOfOrder = 0
        private(set) var errors = 0
        private(set) var withPose = 0

        func poseLandmarker(
            _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock {
                delivered += 1
                if timestampInMilliseconds <= lastTimestamp { outOfOrder += 1 }
                lastTimestamp = timestampInMilliseconds
                if error != nil { errors += 1 }
                if result?.landmarks.count == 1 { withPose += 1 }
            }
        }

        var counts: (delivered: Int, outOfOrder: Int, errors: Int, withPose: Int) {
            lock.withLock { (delivered, outOfOrder, errors, withPose) }
        }
    }

    @Test func residentMemoryStaysFlatAndNoFrameIsLost() throws {
        guard let frames = Self.frameCount else {
            print("skipped: set VT_SOAK_FRAMES (for example 10000) to run the live-stream soak")
            return
        }
        guard let model = SharedData.path("models/pose_landmarker_lite.task"),
            let imagePath = SharedData.path("images/decoded/astronaut.png")
        else { return skipWithoutSharedData("pose_landmarker_lite.task") }
        let image = try MPImage(contentsOfFile: imagePath)
        let counter = Counter()
        let options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = .liveStream
        options.poseLandmarkerLiveStreamDelegate = counter
        let landmarker = try PoseLandmarker(options: options)

        let warmUp = min(500, frames / 10)
        var baseline = 0
        var peak = 0
        let started = Date()
        for index in 0..<frames {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: index * 33)
            // Every fourth frame, let the queue drain: the others meet a busy task and some of
            // them are dropped, so both paths run all the time.
            if index % 4 == 3 { landmarker.waitUntilIdle() }
            if index == warmUp {
                landmarker.waitUntilIdle()
                baseline = Self.residentBytes() ?? 0
            }
            if index > warmUp, index % 500 == 0, let resident = Self.residentBytes() { peak = max(peak, resident) }
        }
        landmarker.waitUntilIdle()
        let final = Self.residentBytes() ?? 0
        peak = max(peak, final)
        let counts = counter.counts
        let dropped = landmarker.droppedFrameCount
        let seconds = Date().timeIntervalSince(started)
        print(
            String(
                format: "soak: %d frames in %.1f s, delivered %d, dropped %d, with pose %d, errors %d; "
                    + "RSS after warm-up %.1f MB, peak %.1f MB, final %.1f MB, growth %.2f MB",
                frames, seconds, counts.delivered, dropped, counts.withPose, counts.errors,
                Double(baseline) / 1e6, Double(peak) / 1e6, Double(final) / 1e6, Double(peak - baseline) / 1e6))
        #expect(counts.delivered + dropped == frames)
        #expect(counts.outOfOrder == 0 && counts.errors == 0)
        #expect(counts.withPose == counts.delivered)
        if baseline > 0, ProcessInfo.processInfo.environment["VT_SOAK_CHECK_RSS"] != "0" {
            #expect(peak - baseline < 5_000_000, "resident memory grew by \(peak - baseline) bytes")
        }
    }
}
