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

/// A biquad section in transposed direct form II, in double precision.
struct Biquad {
    private let b0, b1, b2, a1, a2: Double
    private var z1 = 0.0, z2 = 0.0

    init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// A second-order Butterworth high-pass (RBJ cookbook): maximally flat, no resonance to
    /// ring on clicks.
    static func highPass(cutoff: Double, sampleRate: Double) -> Biquad {
        let (cosine, alpha) = butterworth(cutoff: cutoff, sampleRate: sampleRate)
        let a0 = 1 + alpha
        return Biquad(b0: (1 + cosine) / 2 / a0, b1: -(1 + cosine) / a0, b2: (1 + cosine) / 2 / a0,
                      a1: -2 * cosine / a0, a2: (1 - alpha) / a0)
    }

    /// A first-order high-pass (bilinear transform of 1 / (1 + ω₀/s)): 6 dB/octave, -3 dB at
    /// `cutoff`, no overshoot on a step.
    static func firstOrderHighPass(cutoff: Double, sampleRate: Double) -> Biquad {
        let k = tan(Double.pi * cutoff / sampleRate)
        return Biquad(b0: 1 / (1 + k), b1: -1 / (1 + k), b2: 0, a1: (k - 1) / (k + 1), a2: 0)
    }

    /// A second-order Butterworth low-pass (RBJ cookbook).
    static func lowPass(cutoff: Double, sampleRate: Double) -> Biquad {
        let (cosine, alpha) = butterworth(cutoff: cutoff, sampleRate: sampleRate)
        let a0 = 1 + alpha
        return Biquad(b0: (1 - cosine) / 2 / a0, b1: (1 - cosine) / a0, b2: (1 - cosine) / 2 / a0,
                      a1: -2 * cosine / a0, a2: (1 - alpha) / a0)
    }

    private static func butterworth(cutoff: Double, sampleRate: Double) -> (cosine: Double, alpha: Double) {
        let omega = 2 * Double.pi * cutoff / sampleRate
        return (cos(omega), sin(omega) / (2 * 0.5.squareRoot()))
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
