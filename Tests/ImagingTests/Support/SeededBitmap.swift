import Foundation

@testable import Imaging

/// Bitmaps of pseudo-random bytes (a multiplicative hash of each byte's index and a seed), for
/// tests that compare two ways of converting the same pixels.
enum SeededBitmap {
    static func make(width: Int, height: Int, layout: Bitmap.Layout, seed: Int) throws -> Bitmap {
        let count = width * height * layout.bytesPerPixel
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: (index &+ seed) &* 2_654_435_761 >> 13) }
        return try Bitmap(width: width, height: height, layout: layout, bytes: bytes)
    }
}
