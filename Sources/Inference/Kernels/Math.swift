#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Float {
    /// The C library's `tanhf`.
    @inline(__always) static func tanhValue(_ x: Float) -> Float { tanhf(x) }
    /// The C library's `expf`.
    @inline(__always) static func expValue(_ x: Float) -> Float { expf(x) }
}
