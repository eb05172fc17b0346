import AllocationCounter
import Foundation
import TestSupport
import Testing

@testable import Imaging

/// The conversion runs on every frame, so it must stay on its allocation-free loops whatever the
/// host: checked by counting, not by timing (its speed is a row of docs/BENCHMARKS.md, measured by
/// `vision-tasks bench preprocess`).
@Suite("ImageToTensor allocations", .serialized)
struct ImageToTensorAllocationTests {
    /// AllocationCounter session of this suite (InferenceTests use 1 and 2, decoding 40).
    private static let session: Int32 = 41

    /// A frame of `width` × `height` RGB pixels with a fixed pseudo-random pattern.
    static func frame(width: Int, height: Int, seed: Int = 0) throws -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: (index &+ seed) &* 2_654_435_761 >> 13) }
        return try Bitmap(width: width, height: height, layout: .rgb8, bytes: bytes)
    }

    /// The allocations `body` makes on this thread.
    private func allocations(_ body: () throws -> Void) rethrows -> UInt64 {
        let before = allocation_counter_session_total(Self.session)
        allocation_counter_track_this_thread(Self.session)
        defer { allocation_counter_track_this_thread(0) }
        try body()
        return allocation_counter_session_total(Self.session) - before
    }

    @Test func rotatedCropOf720pFrameTakesTheGeneralPathWithoutAllocating() throws {
        let frame = try Self.frame(width: 1280, height: 720)
        let options = TensorConversionOptions(width: 256, height: 256, valueRange: .zeroToOne)
        let region = NormalizedRect(xCenter: 0.5, yCenter: 0.55, width: 0.5, height: 0.5 * 1280 / 720, rotation: 0.4)
        #expect(try ImageToTensor.warpPath(for: frame, region: region, options: options) == .general)
        var output = [Float](repeating: -1, count: options.elementCount)
        try output.withUnsafeMutableBufferPointer { buffer in
            try ImageToTensor.convert(frame, region: region, options: options, into: buffer)  // warm-up
            guard allocation_counter_is_active() != 0 else {
                print("skipped: the allocation counter is not active on this platform")
                return
            }
            let count = try allocations {
                for _ in 0..<3 { try ImageToTensor.convert(frame, region: region, options: options, into: buffer) }
            }
            #expect(count == 0, "\(count) allocations in three conversions")
        }
        #expect(output.allSatisfy { (0...1).contains($0) })
    }

    @Test(arguments: [false, true])
    func wholeImageForADetectorTakesTheRowInvariantPathWithoutAllocating(_ keepAspectRatio: Bool) throws {
        let image = try Self.frame(width: 958, height: 1358, seed: 1)
        let options = TensorConversionOptions(width: 300, height: 300, keepAspectRatio: keepAspectRatio)
        // The path depends on the LU solution of the warp, not on the rotation alone: this picture
        // upright at 1358 × 958 (the 90° orientations) solves to an inverse whose m3 or m6 is not
        // exactly zero, and rightly takes the general path, which keeps its bits.
        for orientation in ImageOrientation.allCases where !orientation.swapsWidthAndHeight {
            #expect(
                try ImageToTensor.warpPath(for: image, orientation: orientation, options: options) == .rowInvariant,
                "\(orientation)")
        }
        var output = [UInt8](repeating: 0, count: options.elementCount)
        try output.withUnsafeMutableBufferPointer { buffer in
            try ImageToTensor.convert(image, options: options, into: buffer)
            guard allocation_counter_is_active() != 0 else { return }
            let count = try allocations {
                for _ in 0..<3 { try ImageToTensor.convert(image, options: options, into: buffer) }
            }
            #expect(count == 0, "\(count) allocations in three conversions")
        }
    }
}
