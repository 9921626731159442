import Foundation
import RunTracking
import Testing
import TestSupport

@testable import voicemsg

/// Replays Fuzz/Corpus/distance (seeds and fixed crash inputs; scripts/fuzz.sh) through the
/// `--planned-distance` parser the fuzz target calls: a length, or one line of error.
@Suite struct DistanceFuzzCorpusReplayTests {
    @Test func distanceCorpus() throws {
        let inputs = try FuzzCorpus.texts("distance")
        try #require(!inputs.isEmpty)
        for (name, text) in inputs {
            do {
                let distance = try RunDistance(parsing: text)
                #expect(distance.meters > 0 && distance.meters.isFinite, "\(name)")
                // What it prints reads back as the same length.
                #expect(try RunDistance(parsing: distance.description).meters == distance.meters, "\(name)")
            } catch let error as RunTrackingError {
                #expect(error.code == .invalidDistance, "\(name)")
                #expect(!error.description.isEmpty, "\(name)")
            }
        }
    }
}
