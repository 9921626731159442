import Foundation

/// Estimates the peak between samples by 4× polyphase interpolation with a Kaiser-windowed
/// sinc, the way BS.1770-4 Annex 2 defines true peak. Used by the limiter, which needs a
/// per-sample peak rather than one number for the whole signal.
struct InterSamplePeakEstimator: Sendable {
    /// Taps per phase: the interpolated point between n and n+1 uses x[n-5]...x[n+6].
    static let tapsPerPhase = 12
    static let reach = 5
    /// The three fractional phases 1/4, 2/4, 3/4 (phase 0 is the sample itself).
    let phases: [[Float]]
    /// An upper bound of |interpolated| / max|x| over a window, used to skip quiet blocks.
    let gainBound: Float

    init() {
        var phases: [[Float]] = []
        var bound: Float = 1
        for phase in 1...3 {
            let fraction = Double(phase) / 4
            var taps: [Float] = []
            for j in -Self.reach...(Self.tapsPerPhase - Self.reach - 1) {
                let t = fraction - Double(j)
                let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
                let window = Self.kaiser(t / Double(Self.reach + 1), beta: 5)
                taps.append(Float(sinc * window))
            }
            // Normalize DC gain to 1 so a constant signal is not over- or under-estimated.
            let sum = taps.reduce(0, +)
            taps = taps.map { $0 / sum }
            bound = max(bound, taps.reduce(0) { $0 + abs($1) })
            phases.append(taps)
        }
        self.phases = phases
        self.gainBound = bound
    }

    private static func kaiser(_ x: Double, beta: Double) -> Double {
        guard abs(x) <= 1 else { return 0 }
        return besselI0(beta * (1 - x * x).squareRoot()) / besselI0(beta)
    }

    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        for k in 1..<30 {
            term *= (x / (2 * Double(k))) * (x / (2 * Double(k)))
            sum += term
        }
        return sum
    }

    /// Values of context the estimate at interval n needs: x[n-reach] ... x[n+tapsPerPhase-reach-1].
    static let context = tapsPerPhase - 1

    /// Peaks of intervals 0..<count, reading `padded`, which holds x[-reach] ... x[count+6]
    /// (count + context values). The one loop all the entry points share.
    func peaks(padded x: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        phases[0].withUnsafeBufferPointer { p0 in
            phases[1].withUnsafeBufferPointer { p1 in
                phases[2].withUnsafeBufferPointer { p2 in
                    for n in 0..<count {
                        var a: Float = 0, b: Float = 0, c: Float = 0
                        for j in 0..<Self.tapsPerPhase {
                            let v = x[n + j]
                            a += p0[j] * v
                            b += p1[j] * v
                            c += p2[j] * v
                        }
                        out[n] = max(max(abs(x[n + Self.reach]), abs(a)), max(abs(b), abs(c)))
                    }
                }
            }
        }
    }

    /// Interval peaks of a signal that arrives in pieces, in constant memory: each `append`
    /// hands over the peaks of every interval whose right-hand context has arrived, and
    /// `finish` the rest, with zeros assumed beyond both ends.
    struct Stream {
        let estimator: InterSamplePeakEstimator
        /// The values not yet consumed, preceded by the context the next interval needs.
        private var pending: [Float]
        private var output: [Float]
        static let chunk = 4096

        init(estimator: InterSamplePeakEstimator = .init()) {
            self.estimator = estimator
            pending = [Float](repeating: 0, count: InterSamplePeakEstimator.reach)
            pending.reserveCapacity(Self.chunk + InterSamplePeakEstimator.context)
            output = [Float](repeating: 0, count: Self.chunk)
        }

        mutating func append(_ samples: UnsafeBufferPointer<Float>, peaks: (UnsafeBufferPointer<Float>) -> Void) {
            var offset = 0
            while offset < samples.count {
                let take = min(samples.count - offset, Self.chunk + InterSamplePeakEstimator.context - pending.count)
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: samples[offset..<(offset + take)]))
                offset += take
                drain(peaks)
            }
        }

        mutating func finish(peaks: (UnsafeBufferPointer<Float>) -> Void) {
            // The last real interval needs tapsPerPhase - reach - 1 zeros after it.
            let real = pending.count - InterSamplePeakEstimator.reach
            guard real > 0 else { return }
            pending.append(contentsOf: repeatElement(0, count: InterSamplePeakEstimator.context - InterSamplePeakEstimator.reach))
            drain(peaks)
        }

        /// Computes every interval the pending values fully cover and keeps the context.
        private mutating func drain(_ peaks: (UnsafeBufferPointer<Float>) -> Void) {
            let ready = pending.count - InterSamplePeakEstimator.context
            guard ready > 0 else { return }
            let estimator = self.estimator
            pending.withUnsafeBufferPointer { x in
                output.withUnsafeMutableBufferPointer { out in
                    estimator.peaks(padded: x.baseAddress!, count: ready, into: out.baseAddress!)
                    peaks(UnsafeBufferPointer(rebasing: out[0..<ready]))
                }
            }
            pending.removeFirst(ready)
        }
    }
}

/// The highest interval peak within each `GainCurve` block of a signal that arrives in pieces.
struct BlockPeakCollector {
    private var stream = InterSamplePeakEstimator.Stream()
    private(set) var peaks: [Float]
    private var position = 0

    init(sampleCount: Int) {
        peaks = [Float](repeating: 0, count: GainCurve.blockCount(sampleCount))
    }

    mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        var peaks = self.peaks, position = self.position
        self.peaks = []
        stream.append(samples) { Self.collect($0, into: &peaks, position: &position) }
        self.peaks = peaks
        self.position = position
    }

    /// The block peaks, once every sample has been appended.
    mutating func finish() -> [Float] {
        var peaks = self.peaks, position = self.position
        self.peaks = []
        stream.finish { Self.collect($0, into: &peaks, position: &position) }
        return peaks
    }

    private static func collect(_ chunk: UnsafeBufferPointer<Float>, into peaks: inout [Float], position: inout Int) {
        peaks.withUnsafeMutableBufferPointer { peaks in
            for value in chunk {
                let block = position / GainCurve.blockSize
                if block < peaks.count, value > peaks[block] { peaks[block] = value }
                position += 1
            }
        }
    }
}
