import Foundation
import Testing
import GPXReplay

/// Replays the GPX fuzz corpus (Fuzz/Corpus/gpx; see scripts/fuzz.sh) without the sanitizer
/// build: each input gives a track or a GPXError naming the file, never a trap.
@Suite struct GPXFuzzCorpusReplayTests {
    @Test func gpxCorpus() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/gpx").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        try #require(!names.isEmpty)
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
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
