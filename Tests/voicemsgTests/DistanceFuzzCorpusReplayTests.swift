import Foundation
import RunTracking
import Testing

@testable import voicemsg

/// Replays Fuzz/Corpus/distance (seeds and fixed crash inputs; scripts/fuzz.sh) through the
/// `--planned-distance` parser the fuzz target calls: a length, or one line of error.
@Suite struct DistanceFuzzCorpusReplayTests {
    @Test func distanceCorpus() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/distance").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        try #require(!names.isEmpty)
        for name in names {
            let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
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
