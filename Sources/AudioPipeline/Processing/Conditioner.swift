import Foundation

/// Removes DC offset and rumble below the voice band: the mean is subtracted, then a
/// second-order Butterworth high-pass (12 dB/octave) runs at the cutoff. Handling noise, wind
/// and desk thumps sit below the cutoff; a voice's fundamental sits above it.
public struct Conditioner: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// High-pass cutoff in Hz. Default: 75 Hz. Zero disables the filter.
        public var highPassHz: Double = 75
        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Conditions `samples` in place. `sampleRate` is the samples' rate in Hz.
    public func process(_ samples: inout [Float], sampleRate: Int) {
        guard !samples.isEmpty else { return }
        var sum = 0.0
        for value in samples { sum += Double(value) }
        let mean = Float(sum / Double(samples.count))

        guard configuration.highPassHz > 0, configuration.highPassHz < Double(sampleRate) / 2 else {
            for i in samples.indices { samples[i] -= mean }
            return
        }
        // Bilinear-transform Butterworth high-pass (RBJ cookbook form, Q = 1/sqrt(2)).
        let omega = 2 * Double.pi * configuration.highPassHz / Double(sampleRate)
        let quality = 0.5.squareRoot()
        let alpha = sin(omega) / (2 * quality)
        let cosine = cos(omega)
        let a0 = 1 + alpha
        let b0 = Float((1 + cosine) / 2 / a0)
        let b1 = Float(-(1 + cosine) / a0)
        let b2 = b0
        let a1 = Float(-2 * cosine / a0)
        let a2 = Float((1 - alpha) / a0)

        var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0
        samples.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<buffer.count {
                let x = buffer[i] - mean
                let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1; x1 = x
                y2 = y1; y1 = y
                buffer[i] = y
            }
        }
    }
}
