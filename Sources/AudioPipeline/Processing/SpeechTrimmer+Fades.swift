import Foundation

extension SpeechTrimmer {
    /// Fades the first and/or last `length` samples with a raised-cosine (Hann) ramp, so a cut in
    /// the middle of room noise does not start or end with a step the ear hears as a click.
    static func applyFades(to samples: inout [Float], length: Int, fadeIn: Bool, fadeOut: Bool) {
        let count = samples.count
        let length = min(length, count / 2)
        guard length > 0, fadeIn || fadeOut else { return }
        samples.withUnsafeMutableBufferPointer { buffer in
            for k in 0..<length {
                // Half-sample offset: the ramp never reaches exactly 0 or 1 inside the fade.
                let gain = Float(0.5 - 0.5 * cos(Double.pi * (Double(k) + 0.5) / Double(length)))
                if fadeIn { buffer[k] *= gain }
                if fadeOut { buffer[count - 1 - k] *= gain }
            }
        }
    }
}
