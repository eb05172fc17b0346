// libFuzzer entry point for the image decoders: compiled into the Imaging module by
// scripts/fuzz/build.sh (not part of the Swift package). Any input must end in a bitmap or an
// ImageError; a trap, an ASan report or a leak is a finding.

/// Decodes `data` (JPEG or PNG, recognized by its signature) with limits small enough to keep
/// each run fast; the limits themselves are what the huge-header inputs exercise.
func fuzzImageDecoder(_ data: UnsafeRawBufferPointer) {
    let limits = DecodingLimits(maxWidth: 4096, maxHeight: 4096, maxPixelCount: 1 << 22)
    guard let decoded = try? ImageDecoder.decode(data, limits: limits) else { return }
    // Touch the pixels so that a bitmap smaller than its description is caught by ASan.
    let bitmap = decoded.bitmap
    var sum = 0
    bitmap.withUnsafeBytes { bytes in
        for index in stride(from: 0, to: bytes.count, by: 97) { sum &+= Int(bytes[index]) }
        if let last = bytes.last { sum &+= Int(last) }
    }
    precondition(bitmap.width > 0 && bitmap.height > 0 && sum >= 0)
}
