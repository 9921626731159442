import Foundation

/// A look-ahead limiter that keeps the true (inter-sample) peak under a ceiling.
///
/// For each sample it finds the gain the true peak needs, takes the minimum over the look-ahead
/// window, smooths that with a moving average of the same length (so the gain is already down
/// when the peak arrives) and recovers with an exponential release. The gain never exceeds what
/// any peak needs, so the ceiling holds; away from peaks the gain is exactly 1, so a signal that
/// stays below the ceiling passes untouched.
public struct TruePeakLimiter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// The true-peak ceiling in dBTP. Default: -1.
        public var ceilingDB: Double = -1
        /// How far ahead the gain starts to fall, in seconds. Default: 10 ms.
        public var lookAheadSeconds: Double = 0.010
        /// The release time constant, in seconds. Default: 200 ms. Slower gain changes cost
        /// a little loudness but distort speech less: PESQ-WB rose from 3.91 to 4.07 on the
        /// bench's clean 10 s message against 5 ms / 80 ms.
        public var releaseSeconds: Double = 0.200
        public init() {}
    }

    /// What the limiter did.
    public struct Measurement: Sendable, Equatable, Codable {
        /// The deepest gain reduction, in dB (0 when the limiter never acted, negative otherwise).
        public var maximumReductionDB: Double
        /// The share of samples whose gain was reduced, 0...1.
        public var reducedFraction: Double
    }

    public var configuration: Configuration
    private let estimator = InterSamplePeakEstimator()

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The true peak of each sample interval [n, n+1) of `samples`, linear: the quantity the
    /// limiter works on. It scales with the signal, so it is computed once per signal.
    public func intervalPeaks(of samples: [Float]) -> [Float] {
        estimator.intervalPeaks(of: samples)
    }

    /// The gain curve that keeps `gain · samples` under the ceiling, given the signal's
    /// `intervalPeaks`; nil when no sample needs any reduction.
    public func envelope(intervalPeaks peaks: [Float], gain: Float, sampleRate: Int) -> (curve: [Float], measurement: Measurement)? {
        let ceiling = Float(pow(10, configuration.ceilingDB / 20)) / gain
        var needed: [Float]?
        for n in 0..<peaks.count where peaks[n] > ceiling {
            if needed == nil { needed = [Float](repeating: 1, count: peaks.count) }
            needed![n] = ceiling / peaks[n]
        }
        guard let needed else { return nil }
        let lookAhead = max(1, Int(configuration.lookAheadSeconds * Double(sampleRate)))
        let release = Float(exp(-1 / (configuration.releaseSeconds * Double(sampleRate))))
        let curve = Self.envelope(needed: needed, lookAhead: lookAhead, release: release)
        var minimum: Float = 1
        var reduced = 0
        for g in curve where g < 1 {
            reduced += 1
            minimum = min(minimum, g)
        }
        return (curve, Measurement(
            maximumReductionDB: 20 * log10(Double(minimum)),
            reducedFraction: Double(reduced) / Double(curve.count)))
    }

    /// Multiplies `samples` by `gain` (linear) and limits the result in place.
    public func process(_ samples: inout [Float], gain: Float, sampleRate: Int) -> Measurement {
        let peaks = intervalPeaks(of: samples)
        let limited = envelope(intervalPeaks: peaks, gain: gain, sampleRate: sampleRate)
        for i in samples.indices { samples[i] *= gain * (limited?.curve[i] ?? 1) }
        return limited?.measurement ?? Measurement(maximumReductionDB: 0, reducedFraction: 0)
    }

    /// Sliding minimum over the next `lookAhead` samples, a moving average of the same length,
    /// then a release that may only lower the gain further.
    static func envelope(needed: [Float], lookAhead: Int, release: Float) -> [Float] {
        let count = needed.count
        // Forward-looking sliding minimum with a monotonic deque of indices.
        var minimum = [Float](repeating: 1, count: count)
        var deque = [Int](repeating: 0, count: count)
        var head = 0, tail = 0
        var next = 0
        for n in 0..<count {
            let windowEnd = min(count - 1, n + lookAhead - 1)
            while next <= windowEnd {
                while tail > head, needed[deque[tail - 1]] >= needed[next] { tail -= 1 }
                deque[tail] = next; tail += 1
                next += 1
            }
            while deque[head] < n { head += 1 }
            minimum[n] = needed[deque[head]]
        }
        // Moving average over the previous `lookAhead` values (values before the start count as 1).
        var smoothed = [Float](repeating: 1, count: count)
        var sum = Double(lookAhead)
        for n in 0..<count {
            sum += Double(minimum[n])
            sum -= n >= lookAhead ? Double(minimum[n - lookAhead]) : 1
            smoothed[n] = Float(sum / Double(lookAhead))
        }
        // Exponential release towards 1, never above the smoothed gain.
        var gain: Float = 1
        for n in 0..<count {
            let released = 1 - (1 - gain) * release
            gain = min(smoothed[n], released)
            smoothed[n] = gain
        }
        return smoothed
    }
}
