#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Removes DC offset and rumble below the voice band: the mean is subtracted, then a gentle
/// first-order high-pass (6 dB/octave) runs at the cutoff. Handling noise, wind and desk thumps
/// sit below the cutoff; a voice's fundamental sits above it.
public struct Conditioner: Sendable {
    /// The high-pass filter's settings.
    public struct Configuration: Sendable, Equatable {
        /// High-pass cutoff in Hz. Default: 75 Hz. Zero disables the filter.
        public var highPassHz: Double = 75
        /// The cutoffs that make sense, in Hz: 0 (off) up to 300; above that the filter takes
        /// the voice's own fundamental.
        public static let highPassRange = 0.0...300.0
        /// 1 (6 dB/octave) or 2 (Butterworth, 12 dB/octave). Default: 1. The steeper filter
        /// also takes the low end of a noisy room, and PESQ-WB holds that against the
        /// message (docs/benchmarks.md, "Defaults chosen on the bench").
        public var highPassOrder: Int = 1
        /// The defaults above.
        public init() {}
    }

    /// The filter's settings.
    public var configuration: Configuration

    /// A conditioner with `configuration`.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Conditioning for a signal that is processed in pieces, in order, once its mean is known.
    public func stream(mean: Float, sampleRate: Int) -> Stream {
        let usesFilter = configuration.highPassHz > 0 && configuration.highPassHz < Double(sampleRate) / 2
        guard usesFilter else { return Stream(mean: mean, filter: nil) }
        let rate = Double(sampleRate), cutoff = configuration.highPassHz
        return Stream(mean: mean, filter: configuration.highPassOrder == 1
            ? Biquad.firstOrderHighPass(cutoff: cutoff, sampleRate: rate)
            : Biquad.highPass(cutoff: cutoff, sampleRate: rate))
    }

    /// The conditioning of one signal, carried from piece to piece: its mean and the filter's state.
    public struct Stream {
        let mean: Float
        var filter: Biquad?

        /// Conditions the next piece in place.
        public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
            guard var filter else {
                for i in samples.indices { samples[i] -= mean }
                return
            }
            for i in samples.indices { samples[i] = Float(filter.process(Double(samples[i] - mean))) }
            self.filter = filter
        }
    }
}
