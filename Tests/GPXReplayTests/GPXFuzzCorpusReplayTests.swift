import Foundation
import Testing
import TestSupport
import GPXReplay

/// Replays the GPX fuzz corpus (Fuzz/Corpus/gpx; see scripts/fuzz.sh) without the sanitizer
/// build: each input gives a track or a GPXError naming the file, never a trap.
@Suite struct GPXFuzzCorpusReplayTests {
    @Test func gpxCorpus() throws {
        let inputs = try FuzzCorpus.inputs("gpx")
        try #require(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let data = Data(bytes)
            do {
                let track = try GPXReader.read(data: data, name: name)
                #expect(!track.points.isEmpty, "\(name)")
            } catch let error as GPXError {
                #expect(!name.hasPrefix("seed-"), "seed \(name) is a real track: \(error)")
                #expect(error.description.contains(name), "\(name): \(error)")
            }
        }
    }
}
