import Foundation
import Testing
import TestSupport

/// Acceptance, the command line on recordings libsndfile cannot read: `inspect` names the
/// container and the codec and gives the real duration; and `voicemsg` itself never links
/// FFmpeg, which only the `voicemsg-decode` child loads.
@Suite struct RecordedFormatCLITests {
    @Test func inspectNamesContainerCodecAndRealDuration() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = try Fixtures.speechWAV()
        let webm = folder.appendingPathComponent("chrome.webm").path
        let m4a = folder.appendingPathComponent("iphone.m4a").path
        // A WebM written to a pipe, as a browser streams it: no duration in its header.
        let live = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", wav, "-c:a", "libopus",
                                           "-f", "webm", "-live", "1", "-"])
        try live.standardOutput.write(to: URL(fileURLWithPath: webm))
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", wav, "-c:a", "aac", m4a])

        let result = try Tool.voicemsg(["inspect", "--json", webm, m4a])
        try #require(result.status == 0, "\(result.standardError)")
        let reports = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        try #require(reports.count == 2)
        let source = Double(try frameCount(wav)) / 22_050
        for (report, expected) in zip(reports, [("WebM", "Opus"), ("M4A", "AAC")]) {
            let container = try #require(report["container"] as? String)
            let codec = try #require(report["codec"] as? String)
            let duration = try #require(report["durationSeconds"] as? Double)
            print("inspect \(report["file"] ?? ""): \(container), \(codec), \(duration) s (source \(source) s)")
            #expect(container == expected.0)
            #expect(codec.hasPrefix(expected.1))
            // Priming removed: the length of the WAV, give or take the codec's last frame.
            #expect(abs(duration - source) < 0.03, "\(duration) s against \(source) s")
        }
        let text = try Tool.voicemsg(["inspect", webm])
        #expect(text.text.contains("container:  WebM, codec Opus"), "\(text.text)")
    }

    @Test func voicemsgDoesNotLinkFFmpeg() throws {
        #if os(Linux)
        let voicemsg = try Tool.run("ldd", [try Tool.built("voicemsg")]).text
        let child = try Tool.run("ldd", [try Tool.built("voicemsg-decode")]).text
        #expect(!voicemsg.contains("libavcodec") && !voicemsg.contains("libavformat"), "\(voicemsg)")
        // The check can fail: the child does link them.
        #expect(child.contains("libavcodec") && child.contains("libavformat"))
        #endif
    }

    /// The frame count of a WAV, from soxi.
    private func frameCount(_ path: String) throws -> Int {
        try #require(Int(try Tool.run("soxi", ["-s", path]).text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
