import Foundation
import TestSupport

/// Signals the trimming tests build messages from: noise, clicks, and simple measurements.
/// Written independently of the trimmer, so the tests do not judge it with its own code.
enum TestSignals {
    static let sampleRate = 48_000

    static func samples(seconds: Double) -> Int {
        Int((seconds * Double(sampleRate)).rounded())
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// The true speech span of clean speech: first to one past the last sample whose magnitude
    /// reaches `relativeThreshold` of the peak (default 1%, -40 dB).
    static func truthSpan(of clean: [Float], relativeThreshold: Float = 0.01) -> Range<Int>? {
        let peak = clean.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else { return nil }
        let threshold = peak * relativeThreshold
        guard let first = clean.firstIndex(where: { abs($0) >= threshold }),
              let last = clean.lastIndex(where: { abs($0) >= threshold })
        else { return nil }
        return first..<(last + 1)
    }

    static func whiteNoise(count: Int, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in generator.nextSignedUnit() }
    }

    /// Pink noise by the Voss-McCartney method (16 rows updated at octave-spaced rates plus a
    /// white row), then high-passed at 75 Hz as the Conditioner would do, with unit RMS.
    static func pinkNoise(count: Int, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        var rows = (0..<16).map { _ in generator.nextSignedUnit() }
        var sum = rows.reduce(0, +)
        var output = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let counter = UInt32(truncatingIfNeeded: index + 1)
            let row = counter.trailingZeroBitCount
            if row < rows.count {
                let value = generator.nextSignedUnit()
                sum += value - rows[row]
                rows[row] = value
            }
            output[index] = sum + generator.nextSignedUnit()
        }
        highPass75(&output)
        let level = rms(output[...])
        return output.map { Float(Double($0) / level) }
    }

    /// Brown (red) noise: leaky-integrated white noise, high-passed at 75 Hz, with unit RMS.
    /// Its energy sits lower than pink noise, like ventilation or traffic rumble, so what is left
    /// in the voice band comes in narrower, more uneven frames.
    static func brownNoise(count: Int, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        var output = [Float](repeating: 0, count: count)
        var value: Float = 0
        for index in 0..<count {
            value = 0.999 * value + 0.05 * generator.nextSignedUnit()
            output[index] = value
        }
        highPass75(&output)
        let level = rms(output[...])
        return output.map { Float(Double($0) / level) }
    }

    /// A second-order Butterworth high-pass at 75 Hz (bilinear transform), in place.
    static func highPass75(_ samples: inout [Float]) {
        let k = tan(Double.pi * 75 / Double(sampleRate))
        let norm = 1 / (1 + 2.squareRoot() * k + k * k)
        let b0 = norm, b1 = -2 * norm, b2 = norm
        let a1 = 2 * (k * k - 1) * norm, a2 = (1 - 2.squareRoot() * k + k * k) * norm
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        for index in samples.indices {
            let x = Double(samples[index])
            let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            x2 = x1; x1 = x; y2 = y1; y1 = y
            samples[index] = Float(y)
        }
    }

    /// A 350 ms breath: broadband noise under a smooth swell, with the given RMS.
    static func breath(rms level: Double, seed: UInt64) -> [Float] {
        var noise = whiteNoise(count: samples(seconds: 0.35), seed: seed)
        highPass75(&noise)
        let scale = level / rms(noise[...]) * (8.0 / 3).squareRoot()  // the Hann swell's RMS is sqrt(3/8)
        for index in noise.indices {
            let envelope = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(noise.count))
            noise[index] = Float(Double(noise[index]) * scale * envelope)
        }
        return noise
    }

    enum ClickShape: String, CaseIterable, Sendable {
        /// A broadband burst with a Hann envelope, like a bumped microphone.
        case burst
        /// An instant attack decaying over a few milliseconds, like a button or a tap.
        case decaying
    }

    /// A 30 ms click with the given peak amplitude.
    static func click(_ shape: ClickShape, peak: Float, seed: UInt64) -> [Float] {
        let count = samples(seconds: 0.030)
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let t = Double(index) / Double(count)
            let envelope: Double
            switch shape {
            case .burst: envelope = 0.5 - 0.5 * cos(2 * Double.pi * t)
            case .decaying: envelope = exp(-t * 6)
            }
            return peak * Float(envelope) * generator.nextSignedUnit()
        }
    }
}
