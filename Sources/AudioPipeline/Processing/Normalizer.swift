#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Brings speech to a target integrated loudness without letting its true peak pass a ceiling.
///
/// The gain comes from the BS.1770 loudness of the trimmed speech. The look-ahead limiter then
/// holds the peaks; since limiting lowers the loudness a little, the gain is raised to make up
/// for it, so limiting does not cost loudness.
public struct Normalizer: Sendable {
    /// The targets, the gain's bound and the limiter's timing.
    public struct Configuration: Sendable, Equatable {
        /// Target integrated loudness in LUFS. Default: -16.
        public var targetLoudness: Double = -16
        /// True-peak ceiling of the decoded output in dBTP. Default: -1.
        public var truePeakCeiling: Double = -1
        /// The most gain ever applied, in dB. Default: 42: a -45 LUFS phone recording (quieter
        /// still once a stereo pair is folded to mono) needs over 30 dB plus what the limiter
        /// takes; a near-silent one is not lifted into a wall of amplified noise.
        public var maximumGain: Double = 42
        /// How close the decoded output's loudness must come to the target, in LU, by
        /// libebur128 on libopus's decoding. Default: 0.2, well inside the ±0.5 LU others
        /// allow; a tighter one costs a second encode on most heavily limited messages.
        public var tolerance: Double = 0.2
        /// The limiter's timing; its ceiling is set per pass.
        public var limiter = TruePeakLimiter.Configuration()
        /// The defaults above.
        public init() {}

        /// The targets worth asking for, in LUFS: quieter than -70 is under BS.1770's
        /// absolute gate, louder than -5 leaves no room under any ceiling.
        public static let targetLoudnessRange = -70.0 ... -5.0
        /// The true-peak ceilings worth asking for, in dBTP.
        public static let truePeakCeilingRange = -20.0...0.0
    }

    /// What normalization did.
    public struct Measurement: Sendable, Codable, Equatable {
        /// The gain applied before limiting, in dB.
        public var gainDB: Double
        /// True when the gain hit `maximumGain`: the output is quieter than the target.
        public var isGainCapped: Bool
        /// The ceiling the limiter worked to, in dBTP (below the output ceiling by the codec's
        /// measured peak overshoot).
        public var limiterCeilingDB: Double
        /// The limiter's deepest gain reduction, in dB (0 or negative).
        public var limiterMaximumReductionDB: Double
        /// How many encodes it took for the decoded output to meet the targets.
        public var encodePasses: Int
        /// The true-peak ceiling the decoded output was held to, in dBTP.
        public var truePeakCeilingDB: Double? = nil
        /// True when the decoded output's true peak is still above `truePeakCeilingDB` after
        /// the last encode pass: at a low bitrate the codec's own overshoot can outgrow every
        /// dip. The message is written, but it does not meet its ceiling, and says so.
        public var isTruePeakAboveCeiling: Bool = false
    }

    /// The targets and bounds.
    public var configuration: Configuration

    /// A normalizer with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The result of one `apply`: the gain and the limiter's curve, not yet applied.
    public struct Pass: Sendable {
        /// The analysed signal times the gain and the limiter's curve.
        public var output: GainedSamples
        /// The gain applied before the limiter, in dB.
        public var gainDB: Double
        /// True when the gain hit `maximumGain`.
        public var isGainCapped: Bool
        /// The estimated loudness of `output`, in LUFS.
        public var loudness: Double?
        /// What the limiter did.
        public var limiter: TruePeakLimiter.Measurement
    }

    /// What the gain search needs of a signal, computed once: its true peak and K-weighted power
    /// per `GainCurve` block. Reused across encode passes; the samples are shared, not copied.
    /// The block peaks are exact only where the limiter has needed them so far (see
    /// `BlockPeakTable`).
    public struct Analysis: Sendable {
        let source: any SampleSource
        let sampleRate: Int
        let peaks: BlockPeakTable
        let weighting: KWeighting
        /// The signal's loudness in LUFS, nil for silence.
        public let loudness: Double?
        /// The signal's true peak in dBTP, nil for silence.
        public var truePeak: Double? {
            let peak = peaks.highest
            return peak > 0 ? 20 * log10(Double(peak)) : nil
        }
    }

    /// Analyses `source` in one pass over its pieces, which `observe` also sees (so a caller
    /// can measure them too without reading the signal again).
    public func analyze(
        _ source: any SampleSource, sampleRate: Int, observe: (UnsafeBufferPointer<Float>) throws -> Void
    ) rethrows -> Analysis {
        var weighting = KWeighting.Builder(sampleRate: sampleRate, expectedSampleCount: source.count)
        // Exact only where a block reaches the highest peak so far; the limiter refines the
        // rest it needs later, once it knows the gain.
        var peaks = BlockPeakCollector(sampleCount: source.count, exactAbove: .infinity)
        try source.forEachChunk { piece in
            weighting.append(piece)
            peaks.append(piece)
            try observe(piece)
        }
        let weighted = weighting.finish()
        return Analysis(
            source: source, sampleRate: sampleRate, peaks: BlockPeakTable(peaks, source: source),
            weighting: weighted, loudness: weighted.loudness())
    }

    /// The gain and limiting that make the analysed signal measure `target` LUFS with its true
    /// peak under `limiterCeiling` dBTP.
    ///
    /// Limiting takes loudness away, and the more gain the more it takes, so the gain is found
    /// by the secant method. Each step only recomputes the limiter's block curve and a weighted
    /// sum per block; the audio itself is never copied.
    public func apply(_ analysis: Analysis, target: Double, limiterCeiling: Double) -> Pass {
        var limiterConfiguration = configuration.limiter
        limiterConfiguration.ceilingDB = limiterCeiling
        let limiter = TruePeakLimiter(configuration: limiterConfiguration)
        let maximumGain = configuration.maximumGain
        guard let loudness = analysis.loudness else {
            return Pass(output: GainedSamples(analysis.source), gainDB: 0, isGainCapped: false, loudness: nil,
                        limiter: .init(maximumReductionDB: 0, reducedFraction: 0))
        }

        typealias Step = (gain: Double, level: Double?, curve: GainCurve?, limiter: TruePeakLimiter.Measurement)
        func evaluate(_ gain: Double) -> Step {
            let applied = min(gain, maximumGain)
            let linear = Float(pow(10, applied / 20))
            // Blocks at or under the limiter's ceiling need no gain, exact or not.
            let blockPeaks = analysis.peaks.peaks(exactAbove: limiter.ceiling(gain: linear))
            guard let limited = limiter.envelope(
                blockPeaks: blockPeaks, sampleCount: analysis.source.count,
                gain: linear, sampleRate: analysis.sampleRate)
            else {
                return (gain, loudness + applied, nil, .init(maximumReductionDB: 0, reducedFraction: 0))
            }
            return (gain, analysis.weighting.loudness(gain: limited.curve, scale: linear), limited.curve, limited.measurement)
        }
        var step = evaluate(min(target - loudness, maximumGain))
        // Only the last step's gain and level: its curve is not kept.
        var previous: (gain: Double, level: Double?)?
        var isCapped = false
        for _ in 0..<12 {
            guard let level = step.level else { break }
            let error = target - level
            if abs(error) <= 0.01 { break }
            // At the cap and still short: the most gain allowed is the answer.
            if step.gain >= maximumGain, error > 0 { isCapped = true; break }
            var change = error
            if let previous, let previousLevel = previous.level, level != previousLevel {
                // Secant: the loudness gained per dB of gain, measured, not assumed to be 1.
                let slope = (level - previousLevel) / (step.gain - previous.gain)
                if slope > 0.05 { change = error / slope }
            }
            previous = (step.gain, step.level)
            // The next step's curve is made without this one's beside it.
            step.curve = nil
            step = evaluate(min(step.gain + min(max(change, -12), 12), maximumGain))
        }
        if step.gain >= maximumGain, let level = step.level, level < target - 0.01 { isCapped = true }

        let applied = min(step.gain, maximumGain)
        return Pass(output: GainedSamples(analysis.source, scale: Float(pow(10, applied / 20)), curve: step.curve),
                    gainDB: applied, isGainCapped: isCapped, loudness: step.level, limiter: step.limiter)
    }
}
