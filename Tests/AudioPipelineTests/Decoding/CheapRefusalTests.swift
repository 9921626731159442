import AudioPipeline
import Foundation
import RunTracking
import Testing
import TestSupport

/// Uploads that cannot be a voice message are refused in the first moments of their decode:
/// a rate above 192 kHz at the header, and a long digital silence once its first 30 s have
/// decoded, not after the whole file is resampled and measured.
@Suite struct CheapRefusalTests {
    static let metadata = MessageMetadata(marker: .absolute(meters: 5000))

    static func configuration(_ policy: DecoderIsolation.Policy, silenceLimit: Double? = 30) -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.isolation.policy = policy
        configuration.limits.maximumLeadingSilenceSeconds = silenceLimit
        return configuration
    }

    /// Three minutes of 8-channel silence whose file was then cut in half. Decoding it to the
    /// cut ends in "truncated"; a refusal for silence proves the decode stopped long before.
    @Test(arguments: [DecoderIsolation.Policy.fallback, .always])
    func longSilenceIsRefusedBeforeTheRestIsDecoded(_ policy: DecoderIsolation.Policy) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.flac").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "s16le", "-ar", "48000", "-ac", "8", "-i", "/dev/zero",
                                "-t", "180", "-c:a", "flac", whole])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = folder.appendingPathComponent("silence.flac").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))

        // Without the limit, the decoder reads on to the cut: the file really is broken there
        // (libsndfile finds it truncated; FFmpeg, a frame cut short).
        let unlimited = try #require(throws: AudioPipelineError.self) {
            try MessagePipeline(configuration: Self.configuration(policy, silenceLimit: nil)).process(.file(path: cut), metadata: Self.metadata)
        }
        print("the same, decoded to the cut (\(policy)): \(unlimited)")
        #expect(unlimited.code == .unreadableInput, "\(unlimited)")

        let error = try #require(throws: AudioPipelineError.self) {
            try MessagePipeline(configuration: Self.configuration(policy)).process(.file(path: cut), metadata: Self.metadata)
        }
        print("silent 3 min, 8 channels, cut in half (\(policy)): \(error)")
        #expect(error.code == .noSpeech)
        #expect(error.description == "\(cut): no speech: the first 30 s are digital silence (every sample below -100 dBFS); the rest was not decoded")
    }

    /// The limit counts the silence before the first sound, however the message goes on: a
    /// message opening with 2.5 s of zeros is refused under a 2 s limit and kept, with its
    /// speech where it was, under a 4 s one.
    @Test(arguments: [DecoderIsolation.Policy.fallback, .always])
    func limitIsTheOpeningSilence(_ policy: DecoderIsolation.Policy) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try SpeechRecordings.make(seconds: 4, loudness: -24, sampleRate: 48_000, channels: 1, container: .wav,
                                               name: "late-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: speech.path) }
        let late = folder.appendingPathComponent("late.flac").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", speech.path, "-af", "adelay=2500:all=1", "-c:a", "flac", late])

        let error = try #require(throws: AudioPipelineError.self) {
            try MessagePipeline(configuration: Self.configuration(policy, silenceLimit: 2)).process(.file(path: late), metadata: Self.metadata)
        }
        #expect(error.code == .noSpeech)
        #expect(error.message.contains("the first 2 s are digital silence"), "\(error)")

        let kept = try MessagePipeline(configuration: Self.configuration(policy, silenceLimit: 4)).process(.file(path: late), metadata: Self.metadata)
        let original = try MessagePipeline(configuration: Self.configuration(policy)).process(.file(path: speech.path), metadata: Self.metadata)
        print(String(format: "late speech (%@): starts %.3f s (the source's %.3f s, 2.5 s earlier)",
                     "\(policy)", kept.report.speech.startSeconds, original.report.speech.startSeconds))
        #expect(abs(kept.report.speech.startSeconds - original.report.speech.startSeconds - 2.5) <= 0.01)
    }
}
