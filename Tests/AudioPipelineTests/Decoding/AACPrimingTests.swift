import AudioPipeline
import Foundation
import Testing

/// AAC decodes in time with what was recorded, whether its container states the encoder's
/// priming (M4A and MOV edit lists, CAF's packet table) or not (raw ADTS, an MP4 fragmented
/// without an edit list, where the codec's own 1024-sample delay is dropped): the decoded audio
/// lines up with its source to the millisecond, where the priming left in would be 21 ms late.
@Suite struct AACPrimingTests {
    static let rows = RecordedFormats.rows.filter { $0.codec == "AAC" }

    /// The shift of `decoded` against `source` (positive: later), by cross-correlation over a
    /// window from just before the first loud sample, for shifts up to 1.5 codec frames.
    static func lag(of decoded: [Float], against source: [Float]) throws -> Int {
        let peak = source.map(abs).max() ?? 0
        let onset = try #require(source.firstIndex { abs($0) > 0.1 * peak })
        let window = max(0, onset - 1024)..<min(source.count, onset + 8192)
        let reach = 1536
        var best = (score: -Float.infinity, lag: 0)
        source.withUnsafeBufferPointer { source in
            decoded.withUnsafeBufferPointer { decoded in
                for lag in -reach...reach {
                    var score: Float = 0
                    for index in window where index + lag >= 0 && index + lag < decoded.count {
                        score += source[index] * decoded[index + lag]
                    }
                    if score > best.score { best = (score, lag) }
                }
            }
        }
        return best.lag
    }

    @Test(arguments: rows)
    func decodedAudioLinesUpWithItsSource(_ row: RecordedFormats.Row) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SpeechRecordings.make(seconds: 3, loudness: -24, sampleRate: row.sampleRate, channels: row.channels,
                                               container: .wav, name: "priming-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: source.path) }
        let input = try RecordedFormats.make(row, from: source.path, in: folder)
        let reference = try AudioDecoder.decode(path: source.path)
        for policy in [DecoderIsolation.Policy.fallback, .always] {
            let decoded = try AudioDecoder.decode(path: input, isolation: DecoderIsolation(policy: policy))
            let lag = try Self.lag(of: decoded.samples, against: reference.samples)
            print(String(format: "priming %@ (%@): decoded %+d samples (%.2f ms) against the source; %d frames for %d",
                         row.name, "\(policy)", lag, Double(lag) * 1000 / Double(row.sampleRate),
                         decoded.samples.count, reference.samples.count))
            // One millisecond; the priming left in would be 1024 samples, 21-23 ms.
            #expect(abs(lag) <= row.sampleRate / 1000, "\(row.name): \(lag) samples")
        }
    }
}
