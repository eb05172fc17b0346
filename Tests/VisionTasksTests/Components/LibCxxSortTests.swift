import Testing

@testable import VisionTasks

/// ``LibCxxSort`` must sort, and must leave equal elements where libc++'s `std::sort` leaves
/// them. The orders below come from `libcxx_sort` in scripts/reference/check_raw_ssd_reference.py,
/// a model of libc++'s algorithm that reproduces MediaPipe's non-max suppression order on every
/// raw-SSD reference (the fidelity tests check the same against MediaPipe itself).
struct LibCxxSortTests {
    /// Scores with only 17 distinct values (many ties), from a fixed 64-bit LCG; the same
    /// generator is in the Python that made the digests.
    private static func scores(count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float((state >> 33) % 17) / 16
        }
    }

    /// The indices of `scores` sorted by descending score, as MediaPipe's NMS sorts them.
    private static func order(_ scores: [Float], depthLimit: Int? = nil) -> [Int] {
        var indices = Array(scores.indices)
        if let depthLimit {
            LibCxxSort.sort(&indices, depthLimit: depthLimit) { scores[$0] > scores[$1] }
        } else {
            LibCxxSort.sort(&indices) { scores[$0] > scores[$1] }
        }
        return indices
    }

    private static func digest(_ order: [Int]) -> UInt64 {
        order.reduce(UInt64(0)) { $0 &* 1_000_003 &+ UInt64($1) }
    }

    @Test(arguments: [
        (2, 1_000_003 as UInt64), (3, 1_000_006_000_011), (4, 2_000_013_000_024), (5, 3_675_067_600_213_932_124),
        (6, 16_453_235_906_643_403_875), (23, 9_348_512_550_937_829_077), (24, 11_981_266_051_113_893_522),
        (25, 12_714_035_070_878_272_352), (100, 937_144_638_501_978_180), (129, 11_030_657_470_804_971_692),
        (500, 12_922_634_212_698_460_160), (1917, 2_960_190_200_787_223_926),
    ])
    func equalScoresEndInLibCxxOrder(count: Int, digest: UInt64) {
        let scores = Self.scores(count: count, seed: UInt64(count))
        let order = Self.order(scores)
        #expect(Set(order) == Set(scores.indices))
        #expect(zip(order, order.dropFirst()).allSatisfy { scores[$0] >= scores[$1] })
        #expect(Self.digest(order) == digest, "count \(count): \(order.prefix(8))")
    }

    /// The sort is not stable: equal elements do not keep their input order.
    @Test func theSortIsNotStable() {
        let scores = Self.scores(count: 100, seed: 100)
        let order = Self.order(scores)
        let stable = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        #expect(order != stable)
    }

    /// The heap sort that takes over when the depth limit is used up sorts too.
    @Test(arguments: [0, 1, 2])
    func theHeapSortFallbackSorts(depthLimit: Int) {
        for count in [0, 1, 2, 7, 24, 25, 130, 1000] {
            let scores = Self.scores(count: count, seed: 7 + UInt64(count))
            let order = Self.order(scores, depthLimit: depthLimit)
            #expect(order.sorted() == Array(scores.indices))
            #expect(zip(order, order.dropFirst()).allSatisfy { scores[$0] >= scores[$1] }, "count \(count)")
        }
    }
}
