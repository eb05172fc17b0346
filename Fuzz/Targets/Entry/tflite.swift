// libFuzzer's entry point for the 'tflite' target (see scripts/fuzz/build.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    fuzzTFLite(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
