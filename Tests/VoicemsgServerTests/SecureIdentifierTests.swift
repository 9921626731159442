import Foundation
import Testing

@testable import VoicemsgServer

@Suite struct SecureIdentifierTests {
    @Test func idsAndTokensAreLongRandomAndURLSafe() {
        let ids = (0..<1000).map { _ in SecureIdentifier.makeID() }
        let tokens = (0..<1000).map { _ in SecureIdentifier.makeToken() }
        #expect(Set(ids).count == ids.count)
        #expect(Set(tokens).count == tokens.count)
        // 16 and 32 random bytes: at least 128 bits in every id.
        #expect(ids.allSatisfy { $0.count == 22 && SecureIdentifier.isValid($0) })
        #expect(tokens.allSatisfy { $0.count == 43 && SecureIdentifier.isValid($0) })
        // Every URL-safe character shows up somewhere: the bits are spread over the alphabet.
        #expect(Set(ids.joined()).count >= 60)
    }

    @Test(arguments: ["../x", "..", ".", "a/b", "a\\b", "", "x%2F..", "a b", "é", String(repeating: "a", count: 65)])
    func pathLikeIdsAreRejected(_ id: String) {
        #expect(!SecureIdentifier.isValid(id))
    }

    @Test func tokensAreStoredAsSHA256() {
        let hash = SecureIdentifier.hash(token: "abc")
        #expect(hash == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

@Suite struct RetryBackoffTests {
    @Test func delaysDoubleWithJitterAndStopAtTheCap() {
        let backoff = RetryBackoff(baseSeconds: 2, maxSeconds: 60)
        for attempt in 1...4 {
            let ceiling = 2 * pow(2, Double(attempt - 1))
            #expect(backoff.delay(afterAttempt: attempt, unit: 0) == ceiling / 2)
            #expect(backoff.delay(afterAttempt: attempt, unit: 1) == ceiling)
        }
        #expect(backoff.delay(afterAttempt: 40, unit: 1) == 60)
        let spread = Set((0..<50).map { _ in backoff.delay(afterAttempt: 3) })
        #expect(spread.count > 40, "jitter spreads retries")
        #expect(spread.allSatisfy { (4...8).contains($0) })
    }
}

@Suite struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-9", 100, ByteRange.partial(0...9)),
        ("bytes=90-", 100, .partial(90...99)),
        ("bytes=-10", 100, .partial(90...99)),
        ("bytes=50-500", 100, .partial(50...99)),
        ("bytes=100-", 100, .unsatisfiable),
        ("bytes=-0", 100, .unsatisfiable),
        ("bytes=5-2", 100, .whole),
        ("bytes=0-1,5-6", 100, .whole),
        ("items=0-1", 100, .whole),
    ])
    func rangesResolveAgainstTheLength(_ header: String, _ length: Int, _ expected: ByteRange) {
        #expect(ByteRange(header: header, length: length) == expected)
    }
}
