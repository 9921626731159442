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

/// A look-ahead limiter that keeps the true (inter-sample) peak under a ceiling.
///
/// It works on `GainCurve` blocks of 16 samples. For each block it finds the gain the block's
/// true peak needs, takes the minimum over the look-ahead window, smooths that with a moving
/// average of the same length (so the gain is already down when the peak arrives) and recovers
/// with an exponential release. The gain never exceeds what any peak needs, so the ceiling
/// holds; away from peaks the gain is exactly 1, so a signal that stays below the ceiling
/// passes untouched. Working per block keeps its memory at a sixteenth of the signal's.
public struct TruePeakLimiter: Sendable {
    /// The ceiling and the limiter's timing.
    public struct Configuration: Sendable, Equatable {
        /// The true-peak ceiling in dBTP. Default: -1.
        public var ceilingDB: Double = -1
        /// How far ahead the gain starts to fall, in seconds. Default: 10 ms.
        public var lookAheadSeconds: Double = 0.010
        /// The release time constant, in seconds. Default: 50 ms. A release much longer holds
        /// the gain down through the next syllables, so more make-up gain is needed and the
        /// result is compression that lifts the room noise; much shorter and the gain follows
        /// single pitch periods. Chosen on the bench's clarity rows (docs/benchmarks.md,
        /// "Defaults chosen on the bench").
        public var releaseSeconds: Double = 0.050
        /// The defaults above.
        public init() {}
    }

    /// What the limiter did.
    public struct Measurement: Sendable, Equatable, Codable {
        /// The deepest gain reduction, in dB (0 when the limiter never acted, negative otherwise).
        public var maximumReductionDB: Double
        /// The share of samples whose gain was reduced, 0...1.
        public var reducedFraction: Double
    }

    /// The ceiling and timing.
    public var configuration: Configuration

    /// A limiter with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The highest true peak within each `GainCurve` block of `samples`, linear: what the
    /// limiter works on. It scales with the signal, so it is computed once per signal. The
    /// pipeline collects the same peaks while it streams; the Benchmarks package times this.
    public static func blockPeaks(of samples: [Float]) -> [Float] {
        var collector = BlockPeakCollector(sampleCount: samples.count)
        samples.withUnsafeBufferPointer { collector.append($0) }
        return collector.finish()
    }

    /// The gain curve that keeps `gain · samples` under the ceiling, given the signal's
    /// `blockPeaks`; nil when no sample needs any reduction.
    public func envelope(blockPeaks peaks: [Float], sampleCount: Int, gain: Float, sampleRate: Int) -> (curve: GainCurve, measurement: Measurement)? {
        let ceiling = ceiling(gain: gain)
        guard let loudest = peaks.max(), loudest > ceiling else { return nil }
        let size = Double(GainCurve.blockSize)
        let lookAhead = max(1, Int((configuration.lookAheadSeconds * Double(sampleRate) / size).rounded()))
        let release = Float(exp(-size / (configuration.releaseSeconds * Double(sampleRate))))
        let values = peaks.withUnsafeBufferPointer { peaks in
            // A block's value must hold for its neighbours too, since samples interpolate
            // between two blocks (see `GainCurve`).
            let last = peaks.count - 1
            return Self.envelope(count: peaks.count, lookAhead: lookAhead, release: release) { k in
                let peak = max(peaks[max(0, k - 1)], peaks[k], peaks[min(last, k + 1)])
                return peak > ceiling ? ceiling / peak : 1
            }
        }
        var minimum: Float = 1
        var reduced = 0
        for g in values where g < 1 {
            reduced += 1
            minimum = min(minimum, g)
        }
        return (GainCurve(values: values, sampleCount: sampleCount), Measurement(
            maximumReductionDB: 20 * log10(Double(minimum)),
            reducedFraction: Double(reduced) / Double(values.count)))
    }

    /// The ceiling in terms of the signal before `gain`, linear: only blocks whose peak passes
    /// it are limited.
    func ceiling(gain: Float) -> Float {
        Float(pow(10, configuration.ceilingDB / 20)) / gain
    }

    /// Sliding minimum of `needed` over the next `lookAhead` blocks, a moving average of the
    /// same length, then a release that may only lower the gain further. Every output value is
    /// at most the `needed` value of its own block: each minimum in the average covers it (the
    /// ones before the start stand for the first). One pass; besides the output it keeps only `lookAhead` values.
    static func envelope(count: Int, lookAhead: Int, release: Float, needed: (Int) -> Float) -> [Float] {
        var output = [Float](repeating: 1, count: count)
        // Forward-looking sliding minimum: a monotonic deque of (index, value), in a ring.
        let capacity = lookAhead + 1
        var dequeIndex = [Int](repeating: 0, count: capacity)
        var dequeValue = [Float](repeating: 1, count: capacity)
        var head = 0, size = 0
        var next = 0
        // The last `lookAhead` minima, for the moving average. Before the start they count as
        // the first one, so that a signal which starts on a peak starts with its gain down.
        var recent = [Float](repeating: 1, count: lookAhead)
        var sum = Double(lookAhead)
        var gain: Float = 1
        for n in 0..<count {
            let windowEnd = min(count - 1, n + lookAhead - 1)
            while next <= windowEnd {
                let value = needed(next)
                while size > 0, dequeValue[(head + size - 1) % capacity] >= value { size -= 1 }
                dequeIndex[(head + size) % capacity] = next
                dequeValue[(head + size) % capacity] = value
                size += 1
                next += 1
            }
            while dequeIndex[head] < n { head = (head + 1) % capacity; size -= 1 }
            let minimum = dequeValue[head]
            if n == 0 {
                for i in recent.indices { recent[i] = minimum }
                sum = Double(minimum) * Double(lookAhead)
            }
            let slot = n % lookAhead
            sum += Double(minimum) - Double(recent[slot])
            recent[slot] = minimum
            // Exponential release towards 1, never above the smoothed gain.
            let released = 1 - (1 - gain) * release
            gain = min(Float(sum / Double(lookAhead)), released)
            output[n] = gain
        }
        return output
    }
}
