import CVisionKernels

/// The SIMD instruction set the engine's kernels run with.
///
/// The best one the CPU supports is chosen when an interpreter is created (AVX-512, then
/// AVX2 with FMA, on x86-64; NEON on arm64); the portable build runs anywhere. Tests and
/// benchmarks may pick another supported one to compare.
package struct InstructionSet: Sendable, Equatable, CustomStringConvertible {
    let isa: vk_isa

    package static let portable = InstructionSet(isa: VK_ISA_PORTABLE)
    package static let avx2 = InstructionSet(isa: VK_ISA_AVX2)
    package static let avx512 = InstructionSet(isa: VK_ISA_AVX512)
    package static let neon = InstructionSet(isa: VK_ISA_NEON)

    /// The best instruction set of this CPU.
    package static var best: InstructionSet { InstructionSet(isa: vk_isa_detect()) }

    /// Every instruction set, best first.
    package static let all: [InstructionSet] = [.avx512, .avx2, .neon, .portable]

    /// Whether this CPU and build can run it.
    package var isSupported: Bool { vk_isa_is_supported(isa) != 0 }

    /// "avx512", "avx2", "neon" or "portable".
    package var description: String { String(cString: vk_isa_name(isa)) }

    /// The instruction set called `name` (see ``description``).
    package init?(name: String) {
        guard let match = InstructionSet.all.first(where: { $0.description == name }) else { return nil }
        self = match
    }

    init(isa: vk_isa) { self.isa = isa }
}
