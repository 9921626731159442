import Foundation
import Testing
import TestSupport

@testable import VoicemsgServer

/// Replays Fuzz/Corpus/range (scripts/fuzz.sh) as the fuzz target reads it: the first two
/// bytes choose a body length, the rest is the `Range` header. A partial answer always lies
/// inside the body.
@Suite struct RangeFuzzCorpusReplayTests {
    @Test func rangeCorpus() throws {
        let inputs = try FuzzCorpus.inputs("range")
        try #require(!inputs.isEmpty)
        var partials = 0
        for (name, bytes) in inputs {
            let length = bytes.count >= 2 ? Int(bytes[0]) << 8 | Int(bytes[1]) : 0
            let header = String(decoding: bytes.dropFirst(2), as: UTF8.self)
            for body in [0, 1, length, 26_214_400] {
                if case .partial(let range) = ByteRange(header: header, length: body) {
                    partials += 1
                    #expect(range.lowerBound >= 0 && range.upperBound < body, "\(name): \(range) outside \(body) bytes")
                }
            }
        }
        #expect(partials > 0, "the seeds include satisfiable ranges")
    }
}
