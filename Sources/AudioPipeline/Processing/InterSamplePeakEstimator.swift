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

/// Estimates the peak between samples by 4× polyphase interpolation with a Kaiser-windowed
/// sinc, the way BS.1770-4 Annex 2 defines true peak. Used by the limiter, which needs a
/// per-sample peak rather than one number for the whole signal.
struct InterSamplePeakEstimator: Sendable {
    /// Taps per phase: the interpolated point between n and n+1 uses x[n-5]...x[n+6].
    static let tapsPerPhase = 12
    static let reach = 5
    /// The three fractional phases 1/4, 2/4, 3/4 (phase 0 is the sample itself).
    let phases: [[Float]]
    /// An upper bound of |interpolated| / max|x| over the samples the interpolation reads, with
    /// room for the float rounding of the sums: used to skip blocks that cannot matter.
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
        // Twelve rounded products and sums can exceed the exact sum by about 13 units in the
        // last place of the largest; 1e-5 is far more.
        self.gainBound = bound * (1 + 1e-5)
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
    ///
    /// Eight intervals at a time, one per SIMD lane: each lane adds its products in the same
    /// order as the one-interval loop below, so both give the same bits.
    func peaks(padded x: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        typealias Lanes = SIMD8<Float>
        let width = Lanes.scalarCount
        let vectorCount = count - count % width
        phases[0].withUnsafeBufferPointer { p0 in
            phases[1].withUnsafeBufferPointer { p1 in
                phases[2].withUnsafeBufferPointer { p2 in
                    let raw = UnsafeRawPointer(x)
                    let stride = MemoryLayout<Float>.stride
                    var n = 0
                    while n < vectorCount {
                        var a = Lanes(), b = Lanes(), c = Lanes()
                        for j in 0..<Self.tapsPerPhase {
                            let v = raw.loadUnaligned(fromByteOffset: (n + j) * stride, as: Lanes.self)
                            a += v * p0[j]
                            b += v * p1[j]
                            c += v * p2[j]
                        }
                        let centre = raw.loadUnaligned(fromByteOffset: (n + Self.reach) * stride, as: Lanes.self)
                        let peak = Self.larger(Self.larger(Self.magnitude(centre), Self.magnitude(a)),
                                               Self.larger(Self.magnitude(b), Self.magnitude(c)))
                        UnsafeMutableRawPointer(out).storeBytes(of: peak, toByteOffset: n * stride, as: Lanes.self)
                        n += width
                    }
                    for n in vectorCount..<count {
                        var a: Float = 0, b: Float = 0, c: Float = 0
                        for j in 0..<Self.tapsPerPhase {
                            let v = x[n + j]
                            a += v * p0[j]
                            b += v * p1[j]
                            c += v * p2[j]
                        }
                        out[n] = max(max(abs(x[n + Self.reach]), abs(a)), max(abs(b), abs(c)))
                    }
                }
            }
        }
    }

    /// The larger of each pair of lanes, without the standard library's `pointwiseMax`, which
    /// is not vectorised (it handles NaN lane by lane); there is no NaN here.
    @inline(__always)
    private static func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: a .< b)
    }

    /// |v| in every lane, by clearing the sign bits.
    @inline(__always)
    private static func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
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
