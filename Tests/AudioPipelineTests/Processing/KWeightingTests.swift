import Foundation
import Testing
@_spi(Benchmarks) @testable import AudioPipeline
import TestSupport

@Suite struct KWeightingTests {
    /// Speech-like test signal: harmonics of a gliding fundamental under a syllable envelope,
    /// with pauses, so gating matters.
    static func speechLike(seconds: Double, rate: Int = 48_000, seed: UInt64 = 7) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        let count = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: count)
        var phase = 0.0
        for n in 0..<count {
            let t = Double(n) / Double(rate)
            let f0 = 120 + 40 * sin(2 * .pi * 0.7 * t)
            phase += 2 * .pi * f0 / Double(rate)
            var value = 0.0
            for h in 1...12 { value += sin(Double(h) * phase) / Double(h) }
            let syllable = max(0, sin(2 * .pi * 3 * t)) * (sin(2 * .pi * 0.25 * t) > -0.3 ? 1 : 0)
            value = value * syllable * 0.2 + Double(generator.nextSignedUnit()) * 0.001
            samples[n] = Float(value)
        }
        return samples
    }

    @Test(arguments: [0.3, 1.0, 5.0, 20.0])
    func agreesWithLibebur128(seconds: Double) throws {
        let samples = Self.speechLike(seconds: seconds)
        let ours = try #require(KWeighting(samples, sampleRate: 48_000).loudness())
        let reference = try #require(try LoudnessMeter.measure(samples, sampleRate: 48_000, truePeak: false).integratedLoudness)
        #expect(abs(ours - reference) < 0.05, "K-weighting \(ours) LUFS vs libebur128 \(reference) LUFS")
    }

    /// The loudness of the signal as the gain curve and the scale will leave it, against
    /// libebur128 measuring samples gained by the curve's definition (TestOracles). The curve
    /// is not flat and the scale is not its inverse, so ignoring either changes the answer.
    @Test func followsAGainCurveAndAScale() throws {
        let samples = Self.speechLike(seconds: 5)
        let weighting = KWeighting(samples, sampleRate: 48_000)
        let plain = try #require(weighting.loudness())
        var values = [Float](repeating: 1, count: GainCurve.blockCount(samples.count))
        for k in 0..<(values.count / 2) { values[k] = 0.25 }
        let curve = GainCurve(values: values, sampleCount: samples.count)
        let scale: Float = 1.5
        let ours = try #require(weighting.loudness(gain: curve, scale: scale))
        let gained = samples.indices.map { samples[$0] * scale * curve.gain(at: $0) }
        let reference = try #require(try LoudnessMeter.measure(gained, sampleRate: 48_000, truePeak: false).integratedLoudness)
        #expect(abs(ours - reference) < 0.05, "with the curve: K-weighting \(ours) LUFS vs libebur128 \(reference) LUFS")
        #expect(abs(ours - plain) > 0.5, "the curve and scale must move the loudness (\(plain) -> \(ours) LUFS)")
        let scaledOnly = try #require(weighting.loudness(gain: GainCurve(repeating: 1, sampleCount: samples.count), scale: 2))
        #expect(abs(scaledOnly - plain - 20 * log10(2)) < 0.01, "a scale of 2 is +6.02 LU: \(plain) -> \(scaledOnly)")
    }
}
