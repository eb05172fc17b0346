import TestSupport
import Testing

@testable import ModelFile

/// Seeded random damage to real model files: every mutation must end in a thrown
/// `ModelFileError` or a valid parse — never a trap, never another error type.
@Suite struct MalformedModelTests {
    static let iterations = SharedData.isDebugBuild ? 100 : 10_000

    @Test(arguments: SharedData.modelFiles)
    func seededMutationsNeverCrash(file: String) throws {
        guard let path = SharedData.path("models/\(file)") else {
            print("skipped \(file): ../shared is not available")
            return
        }
        let original = try ByteStorage(mappingFileAt: path).all.array
        let structure = try StructureMap(original: original, fileName: file)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: original.count, alignment: 16)
        defer { buffer.deallocate() }
        original.withUnsafeBytes { buffer.copyMemory(from: $0) }

        var random = SplitMix64(seed: 0x5EED_0000 &+ UInt64(file.utf8.count) &* 7919)
        var outcomes = (parsed: 0, rejected: 0)
        for _ in 0..<Self.iterations {
            var length = original.count
            var touched: [(Int, UInt8)] = []
            func write(_ value: UInt8, at position: Int) {
                guard position >= 0, position < original.count else { return }
                touched.append((position, buffer[position]))
                buffer[position] = value
            }
            switch random.next() % 4 {
            case 0:  // flip a few bytes, mostly in the structural parts
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    write(UInt8(truncatingIfNeeded: random.next()), at: structure.position(&random))
                }
            case 1:  // truncate
                length = Int(random.next() % UInt64(original.count))
            case 2:  // a huge or negative length or offset
                let values: [UInt32] = [0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0x0FFF_FFF0, UInt32(original.count)]
                let value =
                    random.next() % 2 == 0 ? values[Int(random.next() % 5)] : UInt32(truncatingIfNeeded: random.next())
                let position = structure.position(&random) & ~3
                for byte in 0..<4 { write(UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte))), at: position + byte) }
            default:  // zero a word
                let position = structure.position(&random) & ~1
                write(0, at: position)
                write(0, at: position + 1)
            }

            let storage = ByteStorage(unownedBytes: UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            do {
                let container = try ModelContainer(bytes: storage.all, fileName: file)
                for entry in try container.models() {
                    _ = try ModelSummary(model: entry.model)
                }
                outcomes.parsed += 1
            } catch is ModelFileError {
                outcomes.rejected += 1
            } catch {
                Issue.record("\(file): a mutation raised \(type(of: error)), not ModelFileError: \(error)")
            }
            for (position, value) in touched.reversed() { buffer[position] = value }
        }
        print("\(file): \(Self.iterations) mutations, \(outcomes.parsed) parsed, \(outcomes.rejected) rejected")
        #expect(outcomes.parsed + outcomes.rejected == Self.iterations)
        #expect(outcomes.rejected > 0)
    }

    @Test func emptyAndTinyInputsAreRejected() {
        for bytes in [[], [0], Array("TFL3".utf8), [0, 0, 0, 0] + Array("TFL3".utf8)] as [[UInt8]] {
            #expect(throws: ModelFileError.self) {
                _ = try ModelContainer(bytes: ByteStorage(copying: bytes).all, fileName: "x.tflite").models()
            }
        }
    }

    @Test func wrongIdentifierIsNamedInTheError() {
        let bytes: [UInt8] = [8, 0, 0, 0] + Array("ABCD".utf8) + Array(repeating: 0, count: 16)
        #expect(throws: ModelFileError.wrongIdentifier(expected: "TFL3", found: "ABCD")) {
            try TFLiteModel(bytes: ByteStorage(copying: bytes).all)
        }
    }
}

/// Where the structure of a file lives: everything except the large constant buffers, which a
/// mutation mostly cannot make invalid. Mutations aim there four times out of five.
private struct StructureMap {
    let count: Int
    /// Sorted, non-overlapping ranges of large constant data.
    let dataRanges: [Range<Int>]

    init(original: [UInt8], fileName: String) throws {
        count = original.count
        let storage = ByteStorage(copying: original)
        let container = try ModelContainer(bytes: storage.all, fileName: fileName)
        var ranges: [Range<Int>] = []
        for entry in try container.models() {
            for case let buffer? in entry.model.buffers where buffer.count > 256 {
                ranges.append(buffer.offset..<(buffer.offset + buffer.count))
            }
        }
        dataRanges = ranges.sorted { $0.lowerBound < $1.lowerBound }
    }

    func position(_ random: inout SplitMix64) -> Int {
        let anywhere = Int(random.next() % UInt64(count))
        guard random.next() % 5 != 0 else { return anywhere }
        for _ in 0..<32 {
            let candidate = Int(random.next() % UInt64(count))
            if !dataRanges.contains(where: { $0.contains(candidate) }) { return candidate }
        }
        return anywhere
    }
}

/// A small, fast, seedable generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
