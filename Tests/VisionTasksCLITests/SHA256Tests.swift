import Testing

@testable import VisionTasksCLI

@Suite struct SHA256Tests {
    // Test vectors: FIPS 180-4 examples (NIST CSRC "SHA256.pdf") and the one-million-"a" message.
    @Test func matchesPublishedVectors() {
        #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: Array(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = SHA256()
        for chunk in [0..<1, 1..<63, 63..<64, 64..<200, 200..<1000] {
            message[chunk].withUnsafeBytes { hasher.update($0) }
        }
        #expect(hasher.finalizeHex() == SHA256.hex(of: message))
    }
}
