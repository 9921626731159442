import Foundation
import Testing
import TestSupport

/// Acceptance, markers through the CLI: nonsense is refused before any work, with a message that
/// quotes the marker and says what is wrong, and no output appears.
@Suite struct MarkerOptionTests {
    @Test(arguments: ["5parsecs", "5 parsecs", "-5km", "150%", "finish+1km", "halfway-ish"])
    func nonsenseIsRejected(_ marker: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        // `--marker=` so that "-5km" is not taken for an option.
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker=\(marker)"])
        print("--marker '\(marker)': exit \(result.status): \(result.errorLines.first ?? "")")
        #expect(!result.timedOut && !result.wasSignalled)
        #expect(result.status == 64, "a bad argument exits with EX_USAGE")
        let first = try #require(result.errorLines.first)
        #expect(first.contains("invalid distance marker '\(marker)'"), "\(first)")
        #expect(first.split(separator: ":").count >= 3, "the message gives a reason: \(first)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(arguments: [("5km", "5000m"), ("Finish - 1 KM", "finish-1000m"), ("halfway", "50%"), ("2500 M", "2500m")])
    func goodMarkersAreWrittenCanonically(_ marker: String, _ canonical: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", marker])
        #expect(result.status == 0, "\(result.standardError)")
        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream_tags=DISTANCE_MARKER",
                                             "-of", "default=noprint_wrappers=1:nokey=1", output])
        #expect(String(decoding: probe.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == canonical)
    }
}
