import Foundation

/// A minute of something shaped like speech at 48 kHz: a voiced tone whose pitch wanders,
/// with harmonics, switched on and off at a syllable rate, over quiet noise, peaking at about
/// -3 dBFS. The same samples every time.
public enum SyntheticSpeech {
    public static let sampleRate = 48_000

    public static func samples(seconds: Double = 60) -> [Float] {
        let count = Int(seconds * Double(sampleRate))
        var samples = [Float](repeating: 0, count: count)
        var random = UInt64(7)
        var phase = 0.0
        for n in 0..<count {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            let noise = Double(random >> 11) / Double(1 << 53) - 0.5
            let t = Double(n) / Double(sampleRate)
            let pitch: Double = 180 + 40 * sin(2 * .pi * 0.7 * t)
            phase += 2 * .pi * pitch / Double(sampleRate)
            // Syllables: about four a second, each a raised half-sine.
            let syllable: Double = max(0, sin(2 * .pi * 2.1 * t)) * (0.6 + 0.4 * sin(2 * .pi * 0.13 * t))
            let harmonics: Double = 0.5 * sin(2 * phase) + 0.25 * sin(3 * phase) + 0.12 * sin(5 * phase)
            let voiced: Double = sin(phase) + harmonics
            samples[n] = Float(0.55 * syllable * voiced + 0.003 * noise)
        }
        return samples
    }
}
