import Foundation
import Testing
import TestSupport

/// Acceptance, `inspect --json`: on an encoded message it gives the contract keys with the values
/// ffmpeg would agree with; on a WAV it gives the speech span `encode` keeps.
@Suite struct InspectTests {
    @Test func encodedMessage() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("message.opus").path
        let encode = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output,
                                        "--marker", "finish-1km", "--sender", "Grandma Ünal", "--json"])
        try #require(encode.status == 0, "\(encode.standardError)")

        let result = try Tool.voicemsg(["inspect", output, "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any],
                                "inspect --json on one file prints one object")
        let duration = try #require(json["durationSeconds"] as? Double)
        let sampleRate = try #require(json["sampleRate"] as? Int)
        let channels = try #require(json["channels"] as? Int)
        let loudness = try #require(json["integratedLoudness"] as? Double)
        let truePeak = try #require(json["truePeak"] as? Double)
        let tags = try #require(json["tags"] as? [String: String])
        print("inspect: \(duration) s, \(sampleRate) Hz, \(channels) ch, \(loudness) LUFS, \(truePeak) dBTP, tags \(tags)")

        #expect(sampleRate == 48_000)
        #expect(channels == 1)
        #expect(abs(loudness - -16) <= 0.5)
        #expect(truePeak <= -1)
        #expect(tags["DISTANCE_MARKER"] == "finish-1000m")
        #expect(tags["SENDER"] == "Grandma Ünal")
        #expect(tags.keys.allSatisfy { $0 == $0.uppercased() })

        // The duration is the exact sample count, as ffmpeg decodes it.
        let raw = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", output, "-f", "s16le", "-ac", "1", "-"])
        #expect(abs(duration - Double(raw.standardOutput.count / 2) / 48_000) < 1e-9)
        // And the encoder's report agrees about the length.
        // One input: one object.
        let encoded = try #require(try JSONSerialization.jsonObject(with: encode.standardOutput) as? [String: Any])
        let report = try #require(encoded["report"] as? [String: Any])
        let out = try #require(report["output"] as? [String: Any])
        #expect(abs((out["durationSeconds"] as? Double ?? 0) - duration) < 1e-9)
    }

    @Test func recordingShowsTheSpeechSpan() throws {
        // espeak-ng's speech after 1.5 s of silence, then 2 s of silence.
        let input = try Fixtures.speechWAV(lead: 1.5, tail: 2.0)
        let result = try Tool.voicemsg(["inspect", input, "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let duration = try #require(json["durationSeconds"] as? Double)
        #expect(json["sampleRate"] as? Int == 22_050)
        #expect(json["channels"] as? Int == 1)
        #expect(json["integratedLoudness"] as? Double != nil)
        #expect(json["truePeak"] as? Double != nil)
        let speech = try #require(json["speech"] as? [String: Any], "inspect on a recording reports the speech span")
        let start = try #require(speech["startSeconds"] as? Double)
        let end = try #require(speech["endSeconds"] as? Double)
        let keptStart = try #require(speech["keptStartSeconds"] as? Double)
        let keptEnd = try #require(speech["keptEndSeconds"] as? Double)
        print("inspect speech span: \(start)...\(end) s, kept \(keptStart)...\(keptEnd) s of \(duration) s")
        // Judged by ffmpeg's silencedetect (-50 dBFS for 0.2 s), within the ±50 ms the trimmer
        // promises: espeak-ng adds a little silence of its own around the words, so the padding
        // alone does not say where they are.
        let (speechStart, speechEnd) = try Self.speechSpanBySilencedetect(input)
        #expect(abs(start - speechStart) <= 0.05, "inspect says speech starts at \(start) s, silencedetect at \(speechStart) s")
        #expect(abs(end - speechEnd) <= 0.05, "inspect says speech ends at \(end) s, silencedetect at \(speechEnd) s")
        #expect(keptStart < start && keptEnd > end)

        // encode keeps the same span.
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let encode = try Tool.voicemsg(["encode", input, "-o", folder.appendingPathComponent("m.opus").path,
                                        "--marker", "halfway", "--json"])
        try #require(encode.status == 0, "\(encode.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: encode.standardOutput) as? [String: Any])
        let encoded = try #require((report["report"] as? [String: Any])?["speech"] as? [String: Any])
        #expect(encoded["startSeconds"] as? Double == start)
        #expect(encoded["endSeconds"] as? Double == end)
    }

    /// Where ffmpeg's silencedetect finds the first silence ending and the last one starting.
    static func speechSpanBySilencedetect(_ path: String) throws -> (start: Double, end: Double) {
        let result = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-nostats", "-i", path,
                                             "-af", "silencedetect=noise=-50dB:d=0.2", "-f", "null", "-"])
        func times(_ label: String) -> [Double] {
            result.standardError.components(separatedBy: label + ": ").dropFirst()
                .compactMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
        }
        let start = try #require(times("silence_end").first, "silencedetect found no leading silence")
        let end = try #require(times("silence_start").last, "silencedetect found no trailing silence")
        return (start, end)
    }
}
