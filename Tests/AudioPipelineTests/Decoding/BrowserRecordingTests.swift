import AudioPipeline
import Foundation
import RunTracking
import Testing
import TestSupport

/// Acceptance, real browser recordings: headless Chromium (Debian's `chromium`) records a speech
/// WAV through its fake microphone with MediaRecorder `start(1000)`, in every audio mimeType it
/// supports (scripts/browser-record.py). Each recording encodes to -16 LUFS ±0.5 LU at or under
/// -1 dBTP by ffmpeg's ebur128, and keeps the WAV's speech span within 60 ms once the two are
/// aligned by cross-correlation (the recorder starts at its own moment).
@Suite struct BrowserRecordingTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/browser-record.py").path

    struct Recording: Decodable {
        var mimeType: String
        var file: String
    }

    struct Output: Decodable {
        var userAgent: String
        var recordings: [Recording]
    }

    @Test func everySupportedMimeTypeEncodesWithTheSourcesSpeechSpan() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SpeechRecordings.make(seconds: 5, loudness: -24, sampleRate: 48_000, channels: 1, container: .wav,
                                               name: "browser-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: source.path) }
        let run = try Tool.run("python3", [Self.script, "--wav", source.path, "--out", folder.path], timeout: 150)
        let output = try JSONDecoder().decode(Output.self, from: run.standardOutput)
        print("browser: \(output.userAgent); \(output.recordings.map(\.mimeType))")
        let types = Set(output.recordings.map { $0.mimeType.split(separator: ";")[0] })
        #expect(types.isSuperset(of: ["audio/webm", "audio/mp4"]), "Chromium recorded only \(types)")

        let metadata = MessageMetadata(marker: try DistanceMarker(parsing: "halfway"))
        let reference = try MessagePipeline().process(.file(path: source.path), metadata: metadata).report.speech
        let sourceEnvelope = try Self.envelope(AudioDecoder.decode(path: source.path))
        for recording in output.recordings {
            let message = try MessagePipeline().process(.file(path: recording.file), metadata: metadata)
            let opus = folder.appendingPathComponent(URL(fileURLWithPath: recording.file).lastPathComponent + ".opus").path
            try Data(OggOpusWriter.write(message.stream)).write(to: URL(fileURLWithPath: opus))
            let measured = try ReferenceTools.ebur128(opus)
            // Where the source starts in the recording, in seconds.
            let lag = Self.lag(of: sourceEnvelope, in: try Self.envelope(AudioDecoder.decode(path: recording.file)))
            let span = message.report.speech
            print(String(format: "browser %@: %@, %.3f s; %.2f LUFS, %.2f dBTP; lag %+.3f s; speech %.3f-%.3f s, source %.3f-%.3f s aligned",
                         recording.mimeType, message.report.input.format, message.report.input.durationSeconds,
                         measured.integrated, measured.truePeak, lag, span.startSeconds, span.endSeconds,
                         reference.startSeconds + lag, reference.endSeconds + lag))
            #expect(abs(measured.integrated - -16) <= 0.5, "\(recording.mimeType): \(measured.integrated) LUFS")
            #expect(measured.truePeak <= -1, "\(recording.mimeType): \(measured.truePeak) dBTP")
            #expect(abs(span.startSeconds - (reference.startSeconds + lag)) <= 0.060, "\(recording.mimeType)")
            #expect(abs(span.endSeconds - (reference.endSeconds + lag)) <= 0.060, "\(recording.mimeType)")
        }
    }

    /// Mean absolute value per millisecond: a level curve that codecs leave alone, unlike phase.
    static func envelope(_ audio: DecodedAudio) -> [Float] {
        let block = audio.sampleRate / 1000
        return stride(from: 0, to: audio.samples.count - block, by: block).map { start in
            audio.samples[start..<(start + block)].reduce(0) { $0 + abs($1) } / Float(block)
        }
    }

    /// The shift, in seconds, at which `source` best matches `recording` (normalized
    /// cross-correlation of the two level curves, within ±3 s).
    static func lag(of source: [Float], in recording: [Float]) -> Double {
        func centered(_ values: [Float]) -> [Float] {
            let mean = values.reduce(0, +) / Float(max(1, values.count))
            return values.map { $0 - mean }
        }
        let a = centered(source)
        let b = centered(recording)
        var best = (lag: 0, score: -Float.infinity)
        for lag in -3000...3000 {
            var sum: Float = 0
            var energyA: Float = 0
            var energyB: Float = 0
            for i in a.indices {
                let j = i + lag
                guard j >= 0, j < b.count else { continue }
                sum += a[i] * b[j]
                energyA += a[i] * a[i]
                energyB += b[j] * b[j]
            }
            let score = sum / max(1e-12, (energyA * energyB).squareRoot())
            if score > best.score { best = (lag, score) }
        }
        return Double(best.lag) / 1000
    }
}
