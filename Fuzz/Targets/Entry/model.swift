// libFuzzer's entry point for the 'model' target (see scripts/fuzz/build.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let start else { return 0 }
    fuzzModelReader(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
