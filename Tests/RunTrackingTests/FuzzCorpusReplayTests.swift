import Foundation
import Testing
import TestSupport
import RunTracking

/// Replays the saved fuzz corpora (Fuzz/Corpus, seeds and fixed crash inputs; see
/// scripts/fuzz.sh) through the parsers the fuzz targets call, without the sanitizer build:
/// every input must give a value or one clear line of error, never a trap.
@Suite struct FuzzCorpusReplayTests {
    @Test func markerCorpus() throws {
        let inputs = try FuzzCorpus.texts("marker")
        try #require(!inputs.isEmpty)
        for (name, text) in inputs {
            do {
                let marker = try DistanceMarker(parsing: text)
                // Canonical text is rounded as tags store it (".1050%" becomes "0.11%"), so
                // it must parse, not compare equal.
                #expect((try? DistanceMarker(parsing: marker.canonical)) != nil, "\(name)")
            } catch {
                #expect(error.code == .invalidMarker, "\(name)")
                #expect(!error.description.isEmpty && !error.description.contains("\n") || text.contains("\n"), "\(name)")
            }
        }
    }

    @Test func paceCorpus() throws {
        let inputs = try FuzzCorpus.texts("pace")
        try #require(!inputs.isEmpty)
        for (name, text) in inputs {
            do {
                let pace = try Pace(parsing: text)
                #expect(pace.secondsPerMeter > 0, "\(name)")
            } catch {
                #expect(error.code == .invalidPace, "\(name)")
            }
        }
    }

    /// The crash the pace target found: a minute count whose seconds overflow Int.
    @Test func paceWithHugeMinuteCountIsRefused() throws {
        #expect(throws: RunTrackingError.self) { try Pace(parsing: "6688888883888888807:00") }
    }
}
