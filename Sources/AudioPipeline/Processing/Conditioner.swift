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
        var filter = Biquad.highPass(cutoff: configuration.highPassHz, sampleRate: Double(sampleRate))
        samples.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<buffer.count {
                buffer[i] = Float(filter.process(Double(buffer[i] - mean)))
            }
        }
    }
}
