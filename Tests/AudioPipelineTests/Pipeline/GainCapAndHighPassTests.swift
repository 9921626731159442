import Foundation
import Testing
import RunTracking
import TestSupport
@testable import AudioPipeline

/// Two README claims no test held: the gain stops at +42 dB and says so, and the conditioner's
/// high-pass is a gentle 75 Hz, 6 dB/octave one.
@Suite struct GainCapAndHighPassTests {
    /// Speech at -64 LUFS would need +48 dB: it gets +42, the report says the cap bit, and
    /// ffmpeg measures the output 42 dB louder than the input, not at the target.
    @Test func aWhisperGetsAtMost42dBAndTheReportSaysSo() throws {
        let input = try SpeechRecordings.make(seconds: 5, loudness: -64, sampleRate: 48_000, channels: 1,
                                              container: .wav, name: "gain-cap")
        defer { try? FileManager.default.removeItem(atPath: input.path) }
        let message = try MessagePipeline().process(.file(path: input.path), metadata: MessageMetadata(marker: try DistanceMarker(parsing: "5km")))
        #expect(message.report.normalization.isGainCapped)
        #expect(abs(message.report.normalization.gainDB - 42) < 0.01, "gain \(message.report.normalization.gainDB) dB")

        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        try Data(OggOpusWriter.write(message.stream)).write(to: URL(fileURLWithPath: output))
        let before = try ReferenceTools.ebur128(input.path).integrated
        let after = try ReferenceTools.ebur128(output).integrated
        // At most 42 dB louder. A little less is right: the gain is worked out on the signal
        // after the high-pass and the trim, and Opus moves loudness by a few tenths.
        #expect(after - before <= 42 + 0.2, "ffmpeg: \(before) LUFS in, \(after) LUFS out")
        #expect(after - before >= 42 - 1, "ffmpeg: \(before) LUFS in, \(after) LUFS out")
        #expect(after < -16 - 5, "a capped message stays under the target: \(after) LUFS")
    }

    /// A first-order high-pass at 75 Hz passes a tone at f with gain (f/fc) / √(1 + (f/fc)²):
    /// -3 dB at the cutoff, -10 dB at 25 Hz, nothing audible at 1 kHz. Measured on sines once
    /// the filter has settled, against that formula.
    @Test(arguments: [25.0, 37.5, 75.0, 150.0, 300.0, 1_000.0])
    func theHighPassIsFirstOrderAt75Hz(frequency: Double) {
        let rate = 48_000
        let count = rate * 2
        var samples = (0..<count).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
        var stream = Conditioner().stream(mean: 0, sampleRate: rate)
        samples.withUnsafeMutableBufferPointer { stream.process($0) }
        let settled = samples[(count / 2)...]
        let rms = sqrt(settled.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(settled.count))
        let measured = 20 * log10(rms / (0.5 / 2.squareRoot()))
        let ratio = frequency / 75
        let expected = 20 * log10(ratio / (1 + ratio * ratio).squareRoot())
        #expect(abs(measured - expected) <= 0.1, "\(frequency) Hz: \(measured) dB, a 6 dB/octave 75 Hz high-pass gives \(expected) dB")
    }

    @Test func theMeanIsTakenOut() {
        var samples = [Float](repeating: 0.25, count: 48_000)
        var stream = Conditioner().stream(mean: 0.25, sampleRate: 48_000)
        samples.withUnsafeMutableBufferPointer { stream.process($0) }
        #expect(samples.map(abs).max()! < 1e-6)
    }
}
