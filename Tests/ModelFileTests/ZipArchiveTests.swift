import TestSupport
import Testing

@testable import ModelFile

@Suite struct ZipArchiveTests {
    private func archive(_ bytes: [UInt8]) throws -> ZipArchive {
        try ZipArchive(bytes: ByteStorage(copying: bytes).all)
    }

    private let first = ZipBuilder.Entry(name: "pose_detector.tflite", data: Array("first member".utf8))
    private let second = ZipBuilder.Entry(name: "pose_landmarks_detector.tflite", data: Array(repeating: 7, count: 100))

    @Test func readsStoredMembersByName() throws {
        let zip = try archive(ZipBuilder().build([first, second]))
        #expect(zip.memberNames == ["pose_detector.tflite", "pose_landmarks_detector.tflite"])
        #expect(try zip.storedData(named: "pose_detector.tflite").array == first.data)
        #expect(try zip.storedData(named: "pose_landmarks_detector.tflite").array == second.data)
    }

    @Test func toleratesLeadingBytesAndAlignmentPadding() throws {
        // Official bundles start with two zero bytes and align member data to 4 bytes.
        var builder = ZipBuilder()
        builder.leadingBytes = [0, 0]
        builder.alignment = 4
        let bytes = builder.build([first, second])
        #expect(bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0x50)
        let zip = try archive(bytes)
        for member in zip.members {
            #expect(member.data.offset % 4 == 0)
        }
        #expect(try zip.storedData(named: "pose_landmarks_detector.tflite").array == second.data)
    }

    @Test func findsMembersWhenOffsetsIgnoreAPrefix() throws {
        // A zip appended to a model file, with offsets counted from the zip's own start.
        var builder = ZipBuilder()
        builder.leadingBytes = Array(repeating: 0xAB, count: 1000)
        builder.offsetsRelativeToArchiveStart = true
        let zip = try archive(builder.build([first]))
        #expect(try zip.storedData(named: "pose_detector.tflite").array == first.data)
    }

    @Test func readsAnArchiveWithAComment() throws {
        var builder = ZipBuilder()
        builder.comment = Array("PK\u{05}\u{06} looks like a signature".utf8)
        let zip = try archive(builder.build([first]))
        #expect(zip.memberNames == ["pose_detector.tflite"])
    }

    @Test func bundleRejectsADeflatedMemberLikeUpstream() throws {
        var deflated = first
        deflated.method = 8
        deflated.stored = ZipBuilder.deflateStoredBlock(first.data)
        let bytes = ZipBuilder().build([deflated, second])
        #expect(throws: ModelFileError.compressedMember(name: "pose_detector.tflite")) {
            try ModelAssetBundle(bytes: ByteStorage(copying: bytes).all)
        }
        // The plain archive reader still inflates it (used for wheels).
        let zip = try archive(bytes)
        let member = try #require(zip.member(named: "pose_detector.tflite"))
        #expect(try zip.extract(member) == first.data)
        #expect(throws: ModelFileError.compressedMember(name: "pose_detector.tflite")) {
            try zip.storedData(named: "pose_detector.tflite")
        }
    }

    @Test func extractDetectsACorruptChecksum() throws {
        var damaged = first
        damaged.crc = 0x1234_5678
        let zip = try archive(ZipBuilder().build([damaged]))
        let member = try #require(zip.members.first)
        #expect(throws: ModelFileError.self) { try zip.extract(member) }
    }

    @Test func rejectsATruncatedCentralDirectory() throws {
        let bytes = ZipBuilder().build([first, second])
        // Cut inside the central directory: the end record is gone.
        #expect(throws: ModelFileError.self) { try archive(Array(bytes.dropLast(30))) }
        // Keep the end record but make it claim more directory than there is.
        var lying = bytes
        let end = lying.count - 22
        lying[end + 12] = 0xFF
        lying[end + 13] = 0xFF
        #expect(throws: ModelFileError.self) { try archive(lying) }
        // Claim more entries than the directory holds.
        var tooMany = bytes
        tooMany[end + 8] = 9
        tooMany[end + 10] = 9
        #expect(throws: ModelFileError.self) { try archive(tooMany) }
    }

    @Test func rejectsAMemberWhoseDataRunsPastTheDirectory() throws {
        var bytes = ZipBuilder().build([first])
        // The central directory's compressed size (offset 20 in the first entry) grows past the end.
        let centralStart = bytes.count - 22 - (46 + first.name.utf8.count)
        bytes[centralStart + 20] = 0xFF
        bytes[centralStart + 24] = 0xFF
        #expect(throws: ModelFileError.self) { try archive(bytes) }
    }

    @Test func reportsMissingMembersWithTheAvailableNames() throws {
        let bundle = try ModelAssetBundle(bytes: ByteStorage(copying: ZipBuilder().build([first])).all)
        #expect(
            throws: ModelFileError.memberNotFound(name: "hand_detector.tflite", available: ["pose_detector.tflite"])
        ) {
            try bundle.data(named: "hand_detector.tflite")
        }
    }

    @Test func keepsUnusualMemberNamesExactly() throws {
        let names = ["dir/", "dir/a b.tflite", "ünïcödé.txt", "pose_detector.tflite.bak"]
        let entries = names.map { ZipBuilder.Entry(name: $0, data: Array($0.utf8)) }
        let zip = try archive(ZipBuilder().build(entries))
        #expect(zip.memberNames == names)
        #expect(zip.member(named: "pose_detector.tflite") == nil)
        #expect(try zip.storedData(named: "ünïcödé.txt").array == Array("ünïcödé.txt".utf8))
    }

    @Test func rejectsInputThatIsNotAZip() {
        for bytes in [[], [0x50, 0x4b], Array(repeating: UInt8(0), count: 100), Array("TFL3 is not a zip".utf8)] {
            #expect(throws: ModelFileError.self) { try archive(bytes) }
        }
    }
}
