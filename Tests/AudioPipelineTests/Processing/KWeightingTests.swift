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

    @Test func scalesWithAGainCurve() throws {
        let samples = Self.speechLike(seconds: 5)
        let weighting = KWeighting(samples, sampleRate: 48_000)
        let plain = try #require(weighting.loudness())
        let gained = try #require(weighting.loudness(gain: GainCurve(repeating: 0.5, sampleCount: samples.count), scale: 2))
        #expect(abs(plain - gained) < 1e-3)
    }
}
