import AudioPipeline
import Foundation
import RunTracking
import Testing
import TestSupport

/// Acceptance, formats: every container and codec that phones and browsers record decodes (in
/// the isolated FFmpeg child), comes out at -16 LUFS ±0.5 LU under -1 dBTP as ffmpeg's ebur128
/// measures the Opus file, keeps the speech span of the same message encoded from the WAV it
/// was made from within 30 ms, and decodes to ffprobe's length within one codec frame.
@Suite struct RecordedFormatTests {
    static let spanTolerance = 0.030

    @Test(arguments: RecordedFormats.rows)
    func decodesLikeItsSource(_ row: RecordedFormats.Row) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SpeechRecordings.make(
            seconds: 5, loudness: -24, sampleRate: row.sampleRate, channels: row.channels, container: .wav,
            name: "format-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: source.path) }
        let input = try RecordedFormats.make(row, from: source.path, in: folder)

        let metadata = MessageMetadata(marker: try DistanceMarker(parsing: "5km"))
        let reference = try MessagePipeline().process(.file(path: source.path), metadata: metadata)
        let message = try MessagePipeline().process(.file(path: input), metadata: metadata)
        let output = folder.appendingPathComponent("out.opus").path
        try Data(OggOpusWriter.write(message.stream)).write(to: URL(fileURLWithPath: output))
        let measured = try ReferenceTools.ebur128(output)
        // ffprobe 5.1 ignores the priming and remainder in CAF's packet table, and counts the
        // AAC encoder's padding as audio; the packet table's length is the WAV's, so ffprobe
        // judges that one instead.
        let probed = try RecordedFormats.ffprobeSeconds(row.name == "CAF AAC" ? source.path : input, row: row)
        let span = message.report.speech
        let expected = reference.report.speech
        print(String(format: "format %@: %@, %.4f s (ffprobe %.4f s, frame %.4f s); %.2f LUFS, %.2f dBTP; speech %.3f-%.3f s (WAV %.3f-%.3f s)",
                     row.name, message.report.input.format, message.report.input.durationSeconds, probed, row.frameSeconds,
                     measured.integrated, measured.truePeak, span.startSeconds, span.endSeconds,
                     expected.startSeconds, expected.endSeconds))

        #expect(message.report.input.format.hasPrefix(row.container + ", "), "\(message.report.input.format)")
        #expect(message.report.input.format.contains(row.codec), "\(message.report.input.format)")
        #expect(message.report.input.sampleRate == row.sampleRate)
        #expect(message.report.input.channels == row.channels)
        #expect(abs(measured.integrated - -16) <= 0.5, "ebur128 I = \(measured.integrated) LUFS")
        #expect(measured.truePeak <= -1, "ebur128 true peak = \(measured.truePeak) dBTP")
        #expect(abs(span.startSeconds - expected.startSeconds) <= Self.spanTolerance)
        #expect(abs(span.endSeconds - expected.endSeconds) <= Self.spanTolerance)
        #expect(abs(message.report.input.durationSeconds - probed) <= row.frameSeconds + 1e-6)
    }

    /// The browser-style rows really are what they claim: no duration for ffprobe to read.
    @Test func liveWebMHasNoDuration() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let row = try #require(RecordedFormats.rows.first { $0.name.hasPrefix("WebM Opus, live") })
        let source = try SpeechRecordings.make(seconds: 5, loudness: -24, sampleRate: 48_000, channels: 1, container: .wav,
                                               name: "live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: source.path) }
        let input = try RecordedFormats.make(row, from: source.path, in: folder)
        let format = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", input])
        #expect(format.text.trimmingCharacters(in: .whitespacesAndNewlines) == "N/A")
        let decoded = try AudioDecoder.decode(path: input)
        #expect(abs(decoded.durationSeconds - 5) < 0.07, "decoded \(decoded.durationSeconds) s of a 5 s recording")
    }

    /// The server's way (bytes in memory, every format in the child) gives the same audio as a
    /// file decoded the command line's way.
    @Test(arguments: [RecordedFormats.rows[0], RecordedFormats.rows[4], RecordedFormats.rows[13]])
    func memoryAndAlwaysIsolatedMatchTheFile(_ row: RecordedFormats.Row) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SpeechRecordings.make(seconds: 1, loudness: -24, sampleRate: row.sampleRate, channels: row.channels,
                                               container: .wav, name: "memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: source.path) }
        let input = try RecordedFormats.make(row, from: source.path, in: folder)
        let fromFile = try AudioDecoder.decode(path: input)
        let fromMemory = try AudioDecoder.decode(
            data: try Data(contentsOf: URL(fileURLWithPath: input)), name: "upload",
            isolation: DecoderIsolation(policy: .always))
        #expect(fromMemory.samples == fromFile.samples)
        #expect(fromMemory.format == fromFile.format)
        // And the WAV itself, which libsndfile reads by default, decodes to the same samples in the child.
        let wavHere = try AudioDecoder.decode(path: source.path)
        let wavThere = try AudioDecoder.decode(path: source.path, isolation: DecoderIsolation(policy: .always))
        #expect(wavThere.samples.count == wavHere.samples.count)
        let difference = zip(wavHere.samples, wavThere.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-6)
        #expect(wavThere.container == "WAV" && wavHere.container == nil)
    }
}
