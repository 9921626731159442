import Foundation
import Testing
import TestSupport

/// `inspect` on the bundled phone and browser recordings reports the loudness ffmpeg's
/// ebur128 filter measures. A browser's WebM declares no length, and inspect once took that
/// missing length for a clip too short to gate, calling a 7 s message "silent".
@Suite struct InspectRecordedLoudnessTests {
    static let samples: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("samples")
    }()

    @Test(arguments: ["07-halfway-iphone.m4a", "08-five-km-chrome.webm"])
    func loudnessAgreesWithFFmpeg(_ name: String) throws {
        let path = Self.samples.appendingPathComponent(name).path
        let result = try Tool.voicemsg(["inspect", path, "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let ours = try #require(json["integratedLoudness"] as? Double, "inspect measured no loudness for \(name)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        #expect(json["bytes"] as? Int == size?.intValue, "\(name): inspect's size against the file system's")

        let theirs = try FFmpegLevels.measure(path).integratedLoudness
        #expect(abs(ours - theirs) <= 0.5, "\(name): inspect \(ours) LUFS, ffmpeg \(theirs) LUFS")
    }
}
