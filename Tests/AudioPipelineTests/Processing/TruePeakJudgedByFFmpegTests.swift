import Foundation
import Testing
@_spi(Benchmarks) @testable import AudioPipeline
import TestSupport

/// The true-peak limiter and the inter-sample peak estimator, judged by ffmpeg's ebur128
/// true-peak meter (its own oversampling filter), not by the estimator the limiter is built on.
@Suite struct TruePeakJudgedByFFmpegTests {
    /// ffmpeg's true peak of mono 48 kHz `samples`, in dBTP, read from raw 32-bit floats so
    /// that nothing is clipped or rounded on the way.
    static func ffmpegTruePeak(_ samples: [Float]) throws -> Double {
        try ToolBox.withTemporaryFolder { tools in
            let path = tools.path("signal.f32")
            try samples.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
            return try ReferenceTools.ebur128(path, inputOptions: ["-f", "f32le", "-ar", "48000", "-ac", "1"]).truePeak
        }
    }

    static func limited(_ samples: [Float]) throws -> (output: [Float], envelope: (curve: GainCurve, measurement: TruePeakLimiter.Measurement)) {
        let peaks = TruePeakLimiter.blockPeaks(of: samples)
        let envelope = TruePeakLimiter().envelope(blockPeaks: peaks, sampleCount: samples.count, gain: 1, sampleRate: 48_000)
        let limited = try #require(envelope, "the limiter found nothing to do")
        var output = [Float](repeating: 0, count: samples.count)
        output.withUnsafeMutableBufferPointer {
            GainedSamples(samples, curve: limited.curve).render(0..<samples.count, into: $0.baseAddress!)
        }
        return (output, limited)
    }

    /// ffmpeg reads true peak through its own resampler, which over-reads high tones by up to
    /// 0.6 dB (12 kHz at -6.02 dBTP reads -5.4): it is the stricter judge of a ceiling.
    @Test(arguments: [4.0, 16.0, 64.0])
    func limitedSpeechMeasuresUnderTheCeiling(overdrive: Float) throws {
        let samples = KWeightingTests.speechLike(seconds: 5).map { $0 * overdrive }
        let before = try Self.ffmpegTruePeak(samples)
        #expect(before > 0, "the test signal must need limiting (\(before) dBTP by ffmpeg)")
        let (output, limited) = try Self.limited(samples)
        let after = try Self.ffmpegTruePeak(output)
        #expect(after <= -1.0, "ffmpeg measures \(after) dBTP after limiting \(before) dBTP; the ceiling is -1 dBTP")
        #expect(limited.measurement.maximumReductionDB <= -1 - before + 0.5)
        // The gain recovers in the pauses: the limiter acts around peaks only.
        let recovered = limited.curve.values.max() ?? 0
        #expect(recovered > 0.99, "highest gain \(recovered)")
    }

    /// A sine's true peak is its amplitude, whatever its phase against the samples: a judge
    /// that owes nothing to any filter. 4× oversampling may under-read a tone near 20 kHz by
    /// up to 0.7 dB (BS.1770-4 Annex 2); these stay within 0.2 dB.
    @Test(arguments: [(1_000.0, 0.0), (11_025.0, 0.3), (12_000.0, Double.pi / 4), (19_000.0, 1.1), (7_000.0, 2.0)])
    func estimatorReadsASinesAmplitude(frequency: Double, phase: Double) {
        let amplitude = 0.5
        let samples = (0..<48_000).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / 48_000 + phase)) }
        let ours = 20 * log10(Double(InterSamplePeakEstimator().truePeak(of: samples)))
        let truth = 20 * log10(amplitude)
        #expect(abs(ours - truth) <= 0.2, "\(frequency) Hz: \(ours) dBTP, the sine's peak is \(truth) dBTP")
    }

    /// Speech and clicks, where no formula gives the peak: ffmpeg's meter (printed to 0.1 dB).
    @Test(arguments: ["speech-like", "clicks"])
    func estimatorAgreesWithFFmpeg(signal: String) throws {
        var samples = KWeightingTests.speechLike(seconds: 1)
        if signal == "clicks" {
            samples = [Float](repeating: 0, count: 48_000)
            for k in stride(from: 1000, to: 48_000, by: 4000) { samples[k] = 0.5; samples[k + 1] = 0.5 }
        }
        let ours = 20 * log10(Double(InterSamplePeakEstimator().truePeak(of: samples)))
        let theirs = try Self.ffmpegTruePeak(samples)
        #expect(abs(ours - theirs) <= 0.15, "\(signal): ours \(ours) dBTP, ffmpeg \(theirs) dBTP")
    }
}
