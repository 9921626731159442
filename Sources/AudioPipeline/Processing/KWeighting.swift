import Foundation

/// BS.1770-4's K-weighting filter (a high shelf for the head, then the RLB high-pass) and its
/// gated integration, for loudness searches that must run many times on the same audio.
///
/// `LoudnessMeter` (libebur128) stays the measuring instrument; this exists because the
/// normalizer's gain search needs the loudness of `x · g(n)` for many gain curves `g`, and the
/// K-weighted power of a signal times a slowly varying gain is, to a few hundredths of a dB,
/// the K-weighted power times the gain squared. So the filter runs once, and each search step
/// is a multiply-add per sample.
struct KWeighting {
    /// K-weighted squares of the input, one per sample.
    let weightedSquares: [Float]
    let sampleRate: Int

    init(_ samples: [Float], sampleRate: Int) {
        var shelf = Biquad.kWeightingShelf(sampleRate: Double(sampleRate))
        var highPass = Biquad.kWeightingHighPass(sampleRate: Double(sampleRate))
        var squares = [Float](repeating: 0, count: samples.count)
        for i in 0..<samples.count {
            let y = highPass.process(shelf.process(Double(samples[i])))
            squares[i] = Float(y * y)
        }
        weightedSquares = squares
        self.sampleRate = sampleRate
    }

    /// Integrated loudness in LUFS of the input scaled by `gain` (linear, per sample), gated
    /// per BS.1770-4: 400 ms blocks every 100 ms, an absolute gate at -70 LUFS and a relative
    /// gate 10 LU under the ungated mean. Clips shorter than one block get their ungated level.
    func loudness(gain: [Float]? = nil, scale: Float = 1) -> Double? {
        let segment = sampleRate / 10
        let count = weightedSquares.count
        let scale2 = Double(scale * scale)
        var segments: [Double] = []
        segments.reserveCapacity(count / segment + 1)
        var start = 0
        while start < count {
            let end = min(count, start + segment)
            var sum: Float = 0
            if let gain {
                for i in start..<end { sum += weightedSquares[i] * gain[i] * gain[i] }
            } else {
                for i in start..<end { sum += weightedSquares[i] }
            }
            segments.append(Double(sum) * scale2)
            start = end
        }
        func lufs(_ power: Double) -> Double { -0.691 + 10 * log10(power) }

        let blockSegments = 4
        guard segments.count >= blockSegments, count >= 4 * segment else {
            let total = segments.reduce(0, +) / Double(max(count, 1))
            return total > 0 ? lufs(total) : nil
        }
        var blocks: [Double] = []
        for j in 0...(segments.count - blockSegments) where (j + blockSegments) * segment <= count {
            blocks.append(segments[j..<(j + blockSegments)].reduce(0, +) / Double(blockSegments * segment))
        }
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        let aboveAbsolute = blocks.filter { $0 > absoluteGate }
        guard !aboveAbsolute.isEmpty else { return nil }
        let relativeGate = aboveAbsolute.reduce(0, +) / Double(aboveAbsolute.count) * pow(10, -1.0)
        let gated = aboveAbsolute.filter { $0 > relativeGate }
        return lufs(gated.reduce(0, +) / Double(gated.count))
    }
}

/// A biquad section in transposed direct form II, in double precision.
struct Biquad {
    private let b0, b1, b2, a1, a2: Double
    private var z1 = 0.0, z2 = 0.0

    init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Stage 1 of K-weighting: +4 dB above about 1.7 kHz (BS.1770-4, Table 1 at 48 kHz,
    /// derived for any rate from its analog prototype).
    static func kWeightingShelf(sampleRate: Double) -> Biquad {
        let f0 = 1681.974450955533, gainDB = 3.999843853973347, q = 0.7071752369554196
        let k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10, gainDB / 20)
        let vb = pow(vh, 0.4996667741545416)
        let a0 = 1 + k / q + k * k
        return Biquad(
            b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0, b2: (vh - vb * k / q + k * k) / a0,
            a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }

    /// Stage 2 of K-weighting: the RLB high-pass at about 38 Hz.
    static func kWeightingHighPass(sampleRate: Double) -> Biquad {
        let f0 = 38.13547087602444, q = 0.5003270373238773
        let k = tan(Double.pi * f0 / sampleRate)
        let a0 = 1 + k / q + k * k
        return Biquad(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }
}
