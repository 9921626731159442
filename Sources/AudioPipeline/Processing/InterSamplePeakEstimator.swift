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

    /// The peak of every interval [n, n+1) of `samples`, with zeros assumed beyond both ends.
    func intervalPeaks(of samples: [Float]) -> [Float] {
        let left = Self.reach
        let right = Self.tapsPerPhase - Self.reach
        var padded = [Float](repeating: 0, count: samples.count + left + right)
        padded.withUnsafeMutableBufferPointer { target in
            samples.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                (target.baseAddress! + left).update(from: base, count: source.count)
            }
        }
        var peaks = [Float](repeating: 0, count: samples.count)
        let p0 = phases[0], p1 = phases[1], p2 = phases[2]
        padded.withUnsafeBufferPointer { x in
            peaks.withUnsafeMutableBufferPointer { out in
                for n in 0..<samples.count {
                    let start = n
                    var a: Float = 0, b: Float = 0, c: Float = 0
                    for j in 0..<Self.tapsPerPhase {
                        let v = x[start + j]
                        a += p0[j] * v
                        b += p1[j] * v
                        c += p2[j] * v
                    }
                    out[n] = max(max(abs(x[n + left]), abs(a)), max(abs(b), abs(c)))
                }
            }
        }
        return peaks
    }

    /// The true peak of `samples`, linear, per BS.1770-4 Annex 2 (4x oversampling, 12 taps a phase).
    func truePeak(of samples: [Float]) -> Float {
        intervalPeaks(of: samples).max() ?? 0
    }
}
