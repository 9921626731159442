import Foundation

/// Brings speech to a target integrated loudness without letting its true peak pass a ceiling.
///
/// The gain comes from the BS.1770 loudness of the trimmed speech. The look-ahead limiter then
/// holds the peaks; since limiting lowers the loudness a little, the gain is raised to make up
/// for it, so limiting does not cost loudness.
public struct Normalizer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Target integrated loudness in LUFS. Default: -16.
        public var targetLoudness: Double = -16
        /// True-peak ceiling of the decoded output in dBTP. Default: -1.
        public var truePeakCeiling: Double = -1
        /// The most gain ever applied, in dB. Default: 36, enough to lift a -50 LUFS recording
        /// to the target, but not a near-silent one into a wall of amplified noise.
        public var maximumGain: Double = 36
        /// How close the decoded output's loudness must come to the target, in LU. Default: 0.2,
        /// well inside what a meter can tell apart on speech and half the ±0.5 LU others allow.
        public var tolerance: Double = 0.2
        /// The limiter's timing; its ceiling is set per pass.
        public var limiter = TruePeakLimiter.Configuration()
        public init() {}
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
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The result of one `apply`.
    public struct Pass: Sendable {
        public var samples: [Float]
        /// The gain applied before the limiter, in dB.
        public var gainDB: Double
        public var isGainCapped: Bool
        /// The loudness of `samples`, in LUFS.
        public var loudness: Double?
        public var limiter: TruePeakLimiter.Measurement
    }

    /// Applies gain and limiting to a copy of `samples` so that the result measures `target`
    /// LUFS with its true peak under `limiterCeiling` dBTP.
    ///
    /// Limiting takes loudness away, and the more gain the more it takes, so the gain is found
    /// by the secant method on the measured loudness; it usually settles in two or three rounds.
    public func apply(
        to samples: [Float], loudness: Double, target: Double, limiterCeiling: Double, sampleRate: Int
    ) throws -> Pass {
        var limiterConfiguration = configuration.limiter
        limiterConfiguration.ceilingDB = limiterCeiling
        let limiter = TruePeakLimiter(configuration: limiterConfiguration)
        let maximumGain = configuration.maximumGain

        func run(_ gain: Double) throws -> Pass {
            var result = samples
            let applied = min(gain, maximumGain)
            let measurement = limiter.process(&result, gain: Float(pow(10, applied / 20)), sampleRate: sampleRate)
            // Without limiting, loudness follows the gain exactly.
            let level = measurement.maximumReductionDB < 0
                ? try LoudnessMeter.measure(result, sampleRate: sampleRate, truePeak: false).integratedLoudness
                : loudness + applied
            return Pass(samples: result, gainDB: applied, isGainCapped: gain > maximumGain,
                        loudness: level, limiter: measurement)
        }

        var gain = target - loudness
        var best = try run(gain)
        var previous: (gain: Double, level: Double)?
        for _ in 0..<8 {
            guard let level = best.loudness, !best.isGainCapped else { break }
            let error = target - level
            if abs(error) <= 0.02 { break }
            var step = error
            if let previous, level != previous.level {
                // Secant: the loudness gained per dB of gain, measured, not assumed to be 1.
                let slope = (level - previous.level) / (gain - previous.gain)
                if slope > 0.05 { step = error / slope }
            }
            previous = (gain, level)
            gain += min(max(step, -12), 12)
            best = try run(gain)
        }
        return best
    }
}
