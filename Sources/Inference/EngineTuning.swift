/// Thresholds that decide how the engine runs a model — which layers it fuses, how it cuts fused
/// layers into bands, which jobs it shares between threads — but never what it computes: every
/// setting gives the same bits. The defaults are the values measured best (docs/ENGINE.md);
/// other values exist so that `vision-tasks bench-model --paired-tuning` can time two settings
/// invoke for invoke in one process, which on a noisy shared machine resolves differences that
/// separate runs cannot.
package struct EngineTuning: Sendable, Equatable {
    /// A 1×1 convolution is computed inside the depthwise convolution that reads its output only
    /// when that output has at least this many bytes: smaller ones stay in cache anyway.
    package var fusedPointwiseBytes = 256 * 1024

    /// A 1×1 expansion joins a depthwise → 1×1 fusion (the whole block as one kernel) only when
    /// its output has at least this many bytes: smaller ones are written and read back from the
    /// cache hierarchy at the multiply-adds' pace, and computing them in bands only adds calls
    /// (the hand landmark model's 56×56×144 and 28×28×240 blocks ran no faster fused, its
    /// 112×112×64 one 17 % faster; at 512 KB the model was 3 % slower at two threads).
    package var fusedExpansionBytes = 2 * 1024 * 1024

    /// Bytes of 1×1 output a band of the 1×1 → depthwise kernel aims at: large enough that the
    /// rows two bands' windows share (computed by both) are a small part of a band, small enough
    /// for the per-core cache.
    package var pointwiseBandBytes = 1024 * 1024

    /// Bytes of depthwise output a band of the depthwise → 1×1 kernel aims at (the 1×1 stage
    /// multiplies each band while it is in the first- or second-level cache).
    package var depthwiseBandBytes = 128 * 1024

    /// Bytes of depthwise input a band of the depthwise → 1×1 kernel aims at when a fused 1×1
    /// expansion computes that input.
    package var expansionBandBytes = 512 * 1024

    /// Fewest pixels per band when the depthwise → 1×1 kernel cuts its bands smaller to share a
    /// layer between threads (fewer leave its 1×1 stage too few rows to multiply efficiently).
    package var minimumTaskPixels = 24

    /// Depthwise outputs with fewer rows keep the 1×1 convolution before them separate: each band
    /// recomputes the 1×1 rows its window shares with the band before it, and with two threads on
    /// 14 rows that is half again the 1×1 work (measured: no faster at 14×14 and below, up to 30 %
    /// slower for the pose landmark model's 16×16 and 8×8 strided layers).
    package var fusedPointwiseRows = 24

    /// Packed weight bytes a group of column panels of a matrix product aims at (``GemmTiling``):
    /// the group stays in the per-core cache while its row blocks stream past.
    package var gemmGroupBytes = 128 * 1024

    /// Multiply-adds a task of a matrix product aims at (``GemmTiling``): fewer, larger tasks
    /// make fewer calls into the micro-kernels, and fewer task ends leave a tile without the
    /// AVX2 kernels' pairing of 8-wide tiles (measured against 32 K on the AVX2 host, in-process
    /// pairs over eleven models: up to 2.1 % faster at one thread and 2.3 % at two, none more
    /// than 0.4 % slower; ``gemmMinimumTasks`` still keeps small layers shared).
    package var gemmTaskWork = 128 * 1024

    /// Tasks a matrix product keeps at least, where its rows allow, so that two or more threads
    /// share it evenly (``GemmTiling``).
    package var gemmMinimumTasks = 8

    /// Fewest output columns of a 1×1 convolution after a RELU for which its product leaves out
    /// the steps at which a whole tile reads zeros (``PackedWeights``): finding the steps costs
    /// about a cycle per step and tile, and a step of `n` columns takes about `n / 2` cycles
    /// (AVX-512, 8 rows), so narrow products lose more than the few steps they leave out.
    package var skippingColumns = 64

    /// Token mixings (`TRANSPOSE`, two 1×1 convolutions, `TRANSPOSE`) over at most this many
    /// tokens run transposed as one kernel (``TokenMixingKernel``); 1 keeps the four operators
    /// apart (a token mixing has two tokens or more).
    package var transposedMixingTokens = 4096

    /// Work (multiply-adds or elements) below which a job runs on the calling thread alone: a
    /// fork-join costs about a microsecond, and on a busy machine a worker may not be running.
    package var minimumParallelWork = 32 * 1024

    /// The measured defaults.
    package static let standard = EngineTuning()

    /// The settings by name, as `set(_:to:)` takes them.
    private static var settings: [(name: String, value: WritableKeyPath<EngineTuning, Int>)] {
        [
            ("fused-pointwise-bytes", \.fusedPointwiseBytes), ("fused-expansion-bytes", \.fusedExpansionBytes),
            ("pointwise-band-bytes", \.pointwiseBandBytes), ("depthwise-band-bytes", \.depthwiseBandBytes),
            ("expansion-band-bytes", \.expansionBandBytes), ("minimum-task-pixels", \.minimumTaskPixels),
            ("fused-pointwise-rows", \.fusedPointwiseRows), ("gemm-group-bytes", \.gemmGroupBytes),
            ("gemm-task-work", \.gemmTaskWork), ("gemm-minimum-tasks", \.gemmMinimumTasks),
            ("skipping-columns", \.skippingColumns), ("minimum-parallel-work", \.minimumParallelWork),
            ("transposed-mixing-tokens", \.transposedMixingTokens),
        ]
    }

    /// The names of the settings, as `set(_:to:)` takes them.
    package static var names: [String] { settings.map(\.name) }

    package init() {}

    /// Sets the setting named `name` (one of ``names``) to `value`; returns `false`, changing
    /// nothing, for an unknown name or a value below 1.
    package mutating func set(_ name: String, to value: Int) -> Bool {
        guard value >= 1, let setting = Self.settings.first(where: { $0.name == name }) else { return false }
        self[keyPath: setting.value] = value
        return true
    }
}
