import Foundation

extension SpeechTrimmer {
    /// A second-order Butterworth section (RBJ cookbook, transposed direct form II).
    ///
    /// Used only to weigh frame energy towards the voice band, so the exact response matters
    /// little; what matters is that it costs a few multiplications per sample and no allocation.
    struct Biquad {
        private var b0, b1, b2, a1, a2: Double
        private var z1 = 0.0, z2 = 0.0

        static func highPass(cutoff: Double, sampleRate: Double) -> Biquad {
            let (cosine, alpha) = coefficients(cutoff: cutoff, sampleRate: sampleRate)
            return Biquad(b: ((1 + cosine) / 2, -(1 + cosine), (1 + cosine) / 2), cosine: cosine, alpha: alpha)
        }

        static func lowPass(cutoff: Double, sampleRate: Double) -> Biquad {
            let (cosine, alpha) = coefficients(cutoff: cutoff, sampleRate: sampleRate)
            return Biquad(b: ((1 - cosine) / 2, 1 - cosine, (1 - cosine) / 2), cosine: cosine, alpha: alpha)
        }

        private static func coefficients(cutoff: Double, sampleRate: Double) -> (cosine: Double, alpha: Double) {
            let omega = 2 * Double.pi * cutoff / sampleRate
            let q = 0.5.squareRoot()  // Butterworth: maximally flat, no resonance to ring on clicks
            return (cos(omega), sin(omega) / (2 * q))
        }

        private init(b: (Double, Double, Double), cosine: Double, alpha: Double) {
            let a0 = 1 + alpha
            b0 = b.0 / a0
            b1 = b.1 / a0
            b2 = b.2 / a0
            a1 = -2 * cosine / a0
            a2 = (1 - alpha) / a0
        }

        @inline(__always)
        mutating func process(_ x: Double) -> Double {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }
}
