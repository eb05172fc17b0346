// libFuzzer's entry point for the 'metadata' target (see scripts/fuzz/build.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    fuzzMetadata(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
