import Foundation
import TestSupport
import Testing

@testable import Imaging

/// Replays the image fuzzers' corpus and every past crasher (Fuzz/Corpus/{png,jpeg},
/// Fuzz/Crashers/{png,jpeg}; see docs/RELIABILITY.md) through the decoder: each input must
/// decode or fail with an `ImageError`.
@Suite("Image fuzz corpus replay")
struct ImageFuzzCorpusReplayTests {
    @Test(arguments: ["png", "jpeg"])
    func everyInputDecodesOrThrowsImageError(target: String) throws {
        let inputs = FuzzCorpus.inputs(target)
        #expect(inputs.count >= 5, "the \(target) corpus is missing from \(FuzzCorpus.root.path)")
        // The limits of the fuzz target (Fuzz/Targets/ImageDecoderFuzz.swift).
        let limits = DecodingLimits(maxWidth: 4096, maxHeight: 4096, maxPixelCount: 1 << 22)
        var decoded = 0
        for input in inputs {
            let data = try Data(contentsOf: input)
            do {
                let image = try ImageDecoder.decode(data, limits: limits)
                #expect(image.bitmap.bytes.count == image.bitmap.width * image.bitmap.height * 3)
                decoded += 1
            } catch is ImageError {
            } catch {
                Issue.record("\(input.lastPathComponent): not an ImageError: \(error)")
            }
        }
        // The seeds are valid images of our own making.
        #expect(decoded >= 8, "\(decoded) of \(inputs.count) \(target) inputs decoded")
    }
}
