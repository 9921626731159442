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
        /// How far ahead the gain starts to fall, in seconds. Default: 5 ms.
        public var lookAheadSeconds: Double = 0.005
        /// The release time constant, in seconds. Default: 80 ms.
        public var releaseSeconds: Double = 0.080
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

    /// Multiplies `samples` by `gain` (linear) and limits the result in place.
    public func process(_ samples: inout [Float], gain: Float, sampleRate: Int) -> Measurement {
        let count = samples.count
        guard count > 0 else { return Measurement(maximumReductionDB: 0, reducedFraction: 0) }
        let ceiling = Float(pow(10, configuration.ceilingDB / 20))
        let lookAhead = max(1, Int(configuration.lookAheadSeconds * Double(sampleRate)))

        // The gained signal, padded so the interpolator can read past both ends.
        let left = InterSamplePeakEstimator.reach
        let right = InterSamplePeakEstimator.tapsPerPhase - left
        var padded = [Float](repeating: 0, count: count + left + right)
        for i in 0..<count { padded[left + i] = samples[i] * gain }

        // The gain each sample's true peak needs; 1 where it is under the ceiling.
        var needed = [Float](repeating: 1, count: count)
        var anyOver = false
        padded.withUnsafeBufferPointer { x in
            let block = 64
            var start = 0
            while start < count {
                let end = min(count, start + block)
                var blockMax: Float = 0
                for i in start..<(end + left + right) { blockMax = max(blockMax, abs(x[i])) }
                if blockMax * estimator.gainBound >= ceiling {
                    for n in start..<end {
                        let peak = estimator.peak(at: n + left, in: x)
                        if peak > ceiling {
                            needed[n] = ceiling / peak
                            anyOver = true
                        }
                    }
                }
                start = end
            }
        }
        guard anyOver else {
            for i in 0..<count { samples[i] = padded[left + i] }
            return Measurement(maximumReductionDB: 0, reducedFraction: 0)
        }

        let envelope = Self.envelope(needed: needed, lookAhead: lookAhead,
                                     release: Float(exp(-1 / (configuration.releaseSeconds * Double(sampleRate)))))
        var minimum: Float = 1
        var reduced = 0
        for i in 0..<count {
            let g = envelope[i]
            samples[i] = padded[left + i] * g
            if g < 1 { reduced += 1; minimum = min(minimum, g) }
        }
        return Measurement(
            maximumReductionDB: 20 * log10(Double(minimum)),
            reducedFraction: Double(reduced) / Double(count))
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
