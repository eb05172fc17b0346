import Testing

@testable import Imaging

/// A conversion whose rows are split into ranges, filled in any order (as threads may), gives the
/// tensor of one pass over all rows, for rotated and upright crops, floats and bytes.
@Suite struct ImageToTensorRowSplitTests {
    @Test func rowsFilledInRangesInAnyOrderGiveTheSameTensor() throws {
        var bytes = [UInt8](repeating: 0, count: 333 * 251 * 3)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 11) }
        let bitmap = try Bitmap(width: 333, height: 251, layout: .rgb8, bytes: bytes)
        let regions = [
            NormalizedRect.fullImage,
            NormalizedRect(xCenter: 0.45, yCenter: 0.55, width: 0.6, height: 0.7, rotation: 0.4),
        ]
        // Ranges of 1, 5 and 17 rows, filled from the last range to the first.
        let reversedRanges: ImageToTensor.RowRunner = { count, _, fill in
            var ranges: [Range<Int>] = []
            var start = 0
            var lengths = [1, 5, 17].makeIterator()
            while start < count {
                let length = lengths.next() ?? 17
                ranges.append(start..<Swift.min(count, start + length))
                start += length
            }
            for range in ranges.reversed() { fill(range) }
        }
        for region in regions {
            let options = TensorConversionOptions(width: 192, height: 160, keepAspectRatio: true, borderMode: .zero)
            var whole = [Float](repeating: -1, count: options.elementCount)
            var split = [Float](repeating: -2, count: options.elementCount)
            try whole.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(bitmap, orientation: .right, region: region, options: options, into: $0)
            }
            try split.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(
                    bitmap, orientation: .right, region: region, options: options, into: $0, rows: reversedRanges)
            }
            #expect(whole == split)
            var wholeBytes = [UInt8](repeating: 1, count: options.elementCount)
            var splitBytes = [UInt8](repeating: 2, count: options.elementCount)
            try wholeBytes.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(bitmap, region: region, options: options, into: $0)
            }
            try splitBytes.withUnsafeMutableBufferPointer {
                _ = try ImageToTensor.convert(bitmap, region: region, options: options, into: $0, rows: reversedRanges)
            }
            #expect(wholeBytes == splitBytes)
        }
    }
}
