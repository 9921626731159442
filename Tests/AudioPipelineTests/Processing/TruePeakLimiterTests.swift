import Foundation
import Testing
@_spi(Benchmarks) @testable import AudioPipeline

@Suite struct TruePeakLimiterTests {
    static func decibels(_ linear: Float) -> Double { 20 * log10(Double(linear)) }

    // The ceiling itself is judged by ffmpeg's meter: TruePeakJudgedByFFmpegTests.

    @Test func leavesASignalUnderTheCeilingAlone() {
        let samples = KWeightingTests.speechLike(seconds: 2)
        let peaks = TruePeakLimiter.blockPeaks(of: samples)
        let envelope = TruePeakLimiter().envelope(blockPeaks: peaks, sampleCount: samples.count, gain: 1, sampleRate: 48_000)
        #expect(envelope == nil)
    }

    @Test func blockPeaksAreTheMaximaOfTheIntervalPeaks() {
        let samples = KWeightingTests.speechLike(seconds: 0.5, seed: 3)
        let intervals = InterSamplePeakEstimator().intervalPeaks(of: samples)
        let blocks = TruePeakLimiter.blockPeaks(of: samples)
        #expect(blocks.count == (samples.count + 15) / 16)
        let mismatches = blocks.indices.filter { k in blocks[k] != intervals[(k * 16)..<min(samples.count, k * 16 + 16)].max() }
        #expect(mismatches.isEmpty, "blocks \(mismatches.prefix(5))")
    }
}

@Suite struct InterSamplePeakEstimatorTests {
    /// The interval peaks one interval at a time, straight from the estimator's taps: what the
    /// streamed version must equal, piece by piece. (Whether the taps are right is judged
    /// against sines and ffmpeg in TruePeakJudgedByFFmpegTests.)
    static func reference(_ samples: [Float]) -> [Float] {
        let estimator = InterSamplePeakEstimator()
        func x(_ i: Int) -> Float { i >= 0 && i < samples.count ? samples[i] : 0 }
        return samples.indices.map { n in
            var peak = abs(samples[n])
            for taps in estimator.phases {
                var sum: Float = 0
                for (j, tap) in taps.enumerated() { sum += tap * x(n - InterSamplePeakEstimator.reach + j) }
                peak = max(peak, abs(sum))
            }
            return peak
        }
    }

    @Test(arguments: [1, 7, 4096, 5000])
    func streamingInPiecesMatchesTheDefinition(piece: Int) {
        let samples = KWeightingTests.speechLike(seconds: 0.3, seed: 11)
        var stream = InterSamplePeakEstimator.Stream()
        var peaks: [Float] = []
        var offset = 0
        samples.withUnsafeBufferPointer { all in
            while offset < all.count {
                let end = min(all.count, offset + piece)
                stream.append(UnsafeBufferPointer(rebasing: all[offset..<end])) { peaks.append(contentsOf: $0) }
                offset = end
            }
        }
        stream.finish { peaks.append(contentsOf: $0) }
        let expected = Self.reference(samples)
        #expect(peaks.count == expected.count)
        let worst = zip(peaks, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-6)
    }

    @Test func findsThePeakBetweenSamples() {
        // A full-scale sine at a quarter of the rate, sampled at ±45°: samples reach 0.707 only.
        let samples = (0..<4800).map { Float(sin(Double.pi / 2 * Double($0) + Double.pi / 4)) }
        let peak = InterSamplePeakEstimator().truePeak(of: samples)
        #expect(samples.map(abs).max()! < 0.71)
        #expect(abs(TruePeakLimiterTests.decibels(peak)) < 0.3, "true peak \(TruePeakLimiterTests.decibels(peak)) dBTP")
    }
}

@Suite struct GainCurveTests {
    @Test func rendersTheInterpolationItDescribes() {
        let count = 16 * 20 + 5
        var values = [Float](repeating: 1, count: GainCurve.blockCount(count))
        for k in values.indices { values[k] = 0.3 + 0.7 * Float((k * 7) % 10) / 10 }
        let curve = GainCurve(values: values, sampleCount: count)
        let samples = [Float](repeating: 0.5, count: count)
        var rendered = [Float](repeating: 0, count: count + 10)
        rendered.withUnsafeMutableBufferPointer {
            GainedSamples(samples, scale: 2, curve: curve).render(0..<(count + 10), into: $0.baseAddress!)
        }
        for n in 0..<count {
            #expect(abs(rendered[n] - curve.gain(at: n)) < 1e-6)
            // Every sample's gain lies between its own block's value and a neighbour's.
            let block = n / 16
            let around = values[max(0, block - 1)...min(values.count - 1, block + 1)]
            #expect(curve.gain(at: n) >= around.min()! - 1e-6 && curve.gain(at: n) <= around.max()! + 1e-6)
        }
        // Half a sample from a block's centre the gain is almost the block's value; past the
        // end, silence.
        #expect(abs(curve.gain(at: 16 * 3 + 7) - values[3]) <= abs(values[3] - values[2]) / 32 + 1e-6)
        #expect(rendered[count...].allSatisfy { $0 == 0 })
    }
}

@Suite struct ResamplerStreamTests {
    /// The whole signal in one call, the reference the pieces must match.
    static func resampleAtOnce(_ input: [Float], from rate: Int) throws -> [Float] {
        let stream = try Resampler.Stream(from: rate, to: 48_000)
        var output: [Float] = []
        try input.withUnsafeBufferPointer { try stream.process($0) { output.append(contentsOf: $0) } }
        try stream.finish { output.append(contentsOf: $0) }
        return output
    }

    @Test(arguments: [44_100, 22_050, 8_000, 96_000])
    func piecesGiveTheSameAsOneCallAndTheRightTone(rate: Int) throws {
        let seconds = 1.0
        let tone = 1000.0
        let input = (0..<Int(seconds * Double(rate))).map { Float(0.5 * sin(2 * .pi * tone * Double($0) / Double(rate))) }
        let whole = try Self.resampleAtOnce(input, from: rate)
        let stream = try Resampler.Stream(from: rate, to: 48_000)
        var pieces: [Float] = []
        try input.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + 1237)
                try stream.process(UnsafeBufferPointer(rebasing: all[offset..<end])) { pieces.append(contentsOf: $0) }
                offset = end
            }
        }
        try stream.finish { pieces.append(contentsOf: $0) }
        #expect(abs(whole.count - 48_000) <= 2, "\(whole.count) samples for 1 s")
        #expect(pieces.count == whole.count)
        #expect(zip(pieces, whole).map { abs($0 - $1) }.max() ?? 0 < 1e-5)
        // Away from the edges the output is the same tone at 48 kHz, in phase.
        var error: Float = 0
        for n in 2400..<(whole.count - 2400) {
            let ideal = Float(0.5 * sin(2 * .pi * tone * Double(n) / 48_000))
            error = max(error, abs(whole[n] - ideal))
        }
        #expect(error < 1e-3, "largest deviation from the ideal tone \(error)")
    }
}
