import Foundation
import Testing
@testable import SwingCore

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        // FIPS 180-4 examples.
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func streamingEqualsOneShot() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var s = SHA256()
        var i = 0
        for size in [1, 63, 64, 65, 500, 3000] where i < bytes.count {
            s.update(Data(bytes[i..<min(bytes.count, i + size)])); i += size
        }
        s.update(Data(bytes[min(i, bytes.count)...]))
        #expect(s.hexDigest() == SHA256.hex(Data(bytes)))
    }

    @Test func millionAs() {
        // FIPS 180-4: one million 'a'.
        #expect(SHA256.hex(Data(repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
