import Foundation
import TestSupport
import Testing

@testable import ModelFile

/// `DETECTOR_METADATA`, read from the two-output SSD that `scripts/reference/make_raw_ssd.py` derives
/// (written by MediaPipe's own metadata writer), and never a crash on damaged bytes.
struct DetectorMetadataTests {
    private static func entryBytes() throws -> [UInt8]? {
        guard let path = DerivedModels.path("ssd_mobilenet_v1_raw.tflite") else { return nil }
        let metadata = try #require(try TFLiteModel(contentsOfFile: path).metadata())
        let entry = metadata.subgraphs.first?.customMetadata.first { $0.name == DetectorMetadata.entryName }
        return try #require(entry?.data).array
    }

    @Test func readsTheAnchorsAndDecodingMediaPipesWriterStored() throws {
        guard let bytes = try Self.entryBytes() else {
            return print("skipping: ssd_mobilenet_v1_raw.tflite not derived (scripts/reference/make_derived_models.sh)")
        }
        let detector = try DetectorMetadata(bytes: ByteStorage(copying: bytes).all)
        let decoding = try #require(detector.decoding)
        #expect(detector.fixedAnchors.count == 1917)
        #expect(decoding.numClasses == 90 && decoding.numBoxes == 1917 && decoding.numCoords == 4)
        #expect(decoding.numKeypoints == 0 && decoding.numValuesPerKeypoint == 2)
        #expect([decoding.yScale, decoding.xScale, decoding.hScale, decoding.wScale] == [10, 10, 5, 5])
        #expect(decoding.applyExponentialOnBoxSize && !decoding.sigmoidScore)
        // Every anchor lies in the picture and has a positive size.
        #expect(
            detector.fixedAnchors.allSatisfy {
                (0...1).contains($0.xCenter) && (0...1).contains($0.yCenter) && $0.width > 0 && $0.height > 0
            })
    }

    /// Every truncation and a wrong identifier fail with a `ModelFileError` or parse; none traps.
    @Test func damagedBytesThrowRatherThanCrash() throws {
        guard let bytes = try Self.entryBytes() else { return print("skipping: raw SSD not derived") }
        var failures = 0
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 997)) {
            do {
                _ = try DetectorMetadata(bytes: ByteStorage(copying: bytes.prefix(length)).all)
            } catch is ModelFileError {
                failures += 1
            }
        }
        #expect(failures > 0)
        var renamed = bytes
        if renamed.count > 8 { renamed[4] = UInt8(ascii: "X") }
        #expect(throws: ModelFileError.self) { try DetectorMetadata(bytes: ByteStorage(copying: renamed).all) }
    }
}
