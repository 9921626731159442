@_spi(Benchmarks) import AudioPipeline
import Benchmark
import BenchmarkFixtures

/// The per-sample work of normalizing a message, on a minute of speech-like audio at 48 kHz:
/// the K-weighting filter and the gated loudness the gain search asks for again and again,
/// libebur128's meter with the true-peak estimator, and the limiter.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.metrics,
        maxDuration: .seconds(2),
        thresholds: Tolerances.thresholds())
    let rate = SyntheticSpeech.sampleRate
    let samples = SyntheticSpeech.samples(seconds: 60)

    Benchmark("KWeighting.filter60s") { _ in
        blackHole(KWeighting(samples, sampleRate: rate))
    }

    let weighting = KWeighting(samples, sampleRate: rate)
    // A gain that rises slowly over the minute, as a limiter's curve and a gain step make.
    let blocks = GainCurve.blockCount(samples.count)
    let curve = GainCurve(
        values: (0..<blocks).map { 1.5 + Float($0) / Float(blocks) }, sampleCount: samples.count)
    Benchmark("KWeighting.loudness60s") { _ in
        blackHole(weighting.loudness(gain: curve))
    }

    // libebur128 and the BS.1770 Annex 2 true-peak estimator.
    Benchmark("LoudnessMeter.measure60s") { _ in
        blackHole(try LoudnessMeter.measure(samples, sampleRate: rate))
    }

    Benchmark("Limiter.blockPeaks60s") { _ in
        blackHole(TruePeakLimiter.blockPeaks(of: samples))
    }

    let peaks = TruePeakLimiter.blockPeaks(of: samples)
    let limiter = TruePeakLimiter()
    // At twice the gain the loudest syllables peak about 4 dB over the -1 dBTP ceiling.
    Benchmark("Limiter.envelope60s") { _ in
        blackHole(limiter.envelope(blockPeaks: peaks, sampleCount: samples.count, gain: 2, sampleRate: rate))
    }
}
