import Foundation
import Testing
import TestSupport

/// The README's input limit "8 to 192 kHz", at both edges, through the command line: speech
/// resampled by sox to each rate; a rate outside is refused in one line and writes nothing.
@Suite struct SampleRateLimitTests {
    @Test(arguments: [(7_999, false), (8_000, true), (192_000, true), (192_001, false), (384_000, false)])
    func ratesFrom8To192kHzAreTaken(rate: Int, accepted: Bool) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("speech-\(rate).wav").path
        try Tool.run("sox", [try Fixtures.speechWAV(), "-b", "16", input, "rate", "\(rate)"])
        let probed = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", input])
        #expect(probed.text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(rate)", "sox made \(probed.text)")

        let output = folder.appendingPathComponent("out.opus").path
        let result = try Tool.voicemsg(["encode", input, "-o", output, "--marker", "5km"])
        if accepted {
            #expect(result.status == 0, "\(result.standardError)")
            let info = try Tool.run("opusinfo", [output])
            #expect(info.text.contains("Original sample rate: \(rate) Hz"), "\(info.text)")
        } else {
            #expect(result.status == 1)
            #expect(result.standardError == "\(input): sample rate \(rate) Hz is outside 8000...192000 Hz\n")
            #expect(!FileManager.default.fileExists(atPath: output), "a refused input leaves no output")
        }
    }
}
