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

/// Measures loudness with libebur128 (through `Ebur128Handle`), and the true peak per BS.1770-4.
public enum LoudnessMeter {
    /// Measures `samples` at `sampleRate`: mono, or `channelCount` channels interleaved
    /// (weighted per BS.1770: every channel of up to 5.1 counts 1.0 except surrounds). One
    /// `Session` over the whole signal; the Benchmarks package times it.
    ///
    /// Integrated loudness is gated per BS.1770-4. A clip shorter than one 400 ms gating block
    /// has no gated block at all; it gets the ungated K-weighted level of the whole clip, which
    /// is what a listener hears, instead of "minus infinity".
    public static func measure(_ samples: [Float], channelCount: Int = 1, sampleRate: Int, truePeak: Bool = true) throws -> LoudnessMeasurement {
        let session = try Session(
            channelCount: channelCount, sampleRate: sampleRate, expectedFrames: samples.count / max(1, channelCount), truePeak: truePeak)
        try samples.withUnsafeBufferPointer { try session.add($0) }
        return try session.result()
    }

    /// One measurement of audio that arrives in pieces, in constant memory. `expectedFrames`
    /// is the whole length when the container declares it (0 when it does not, as in a
    /// browser's WebM): a clip shorter than a gating block is measured over a window of its
    /// own length. Whether a clip is that short is decided by the frames that actually arrive,
    /// never by the declared length alone.
    public final class Session {
        private let meter: Ebur128Handle
        private let channelCount: Int
        private let sampleRate: Int
        private var frames = 0
        private var peaks: [InterSamplePeakEstimator.Stream]?
        private var peak: Float = 0
        private var deinterleaved: [Float] = []

        /// A measurement of `channelCount` interleaved channels at `sampleRate`; the true peak only when `truePeak`.
        public init(channelCount: Int = 1, sampleRate: Int, expectedFrames: Int, truePeak: Bool = true) throws {
            meter = try Ebur128Handle(channelCount: channelCount, sampleRate: sampleRate)
            self.channelCount = channelCount
            self.sampleRate = sampleRate
            let durationMs = Int(Double(expectedFrames) * 1000 / Double(sampleRate))
            if durationMs < 400, durationMs > 0 {
                try meter.setMaximumWindow(milliseconds: durationMs)
            }
            if truePeak {
                peaks = Array(repeating: InterSamplePeakEstimator.Stream(), count: channelCount)
            }
        }

        /// Adds interleaved frames.
        public func add(_ samples: UnsafeBufferPointer<Float>) throws {
            guard !samples.isEmpty else { return }
            try meter.add(samples, frames: samples.count / channelCount)
            frames += samples.count / channelCount
            guard peaks != nil else { return }
            var peak = self.peak
            let take = { (chunk: UnsafeBufferPointer<Float>) in
                for value in chunk { peak = max(peak, value) }
            }
            if channelCount == 1 {
                peaks![0].append(samples, peaks: take)
            } else {
                for channel in 0..<channelCount {
                    deinterleaved.removeAll(keepingCapacity: true)
                    for i in stride(from: channel, to: samples.count, by: channelCount) { deinterleaved.append(samples[i]) }
                    deinterleaved.withUnsafeBufferPointer { peaks![channel].append($0, peaks: take) }
                }
            }
            self.peak = peak
        }

        /// Integrated loudness per BS.1770-4 and, when asked for, the true peak.
        public func result() throws -> LoudnessMeasurement {
            let durationMs = Int(Double(frames) * 1000 / Double(sampleRate))
            let isShort = durationMs < 400
            var loudness = -Double.infinity
            if isShort {
                if durationMs > 0 { loudness = try meter.loudness(window: durationMs) }
            } else {
                loudness = try meter.integratedLoudness()
            }
            // True peak per BS.1770-4 Annex 2 (4x oversampling, 12 taps a phase). libebur128's
            // own interpolator reads speech peaks up to a few tenths of a dB above ffmpeg's and
            // the Annex 2 filter's, so it is not the meter of record here.
            if peaks != nil {
                var peak = self.peak
                for channel in 0..<channelCount {
                    peaks![channel].finish { chunk in
                        for value in chunk { peak = max(peak, value) }
                    }
                }
                self.peak = peak
                peaks = nil
            }
            return LoudnessMeasurement(
                integratedLoudness: loudness.isFinite ? loudness : nil,
                truePeak: peak > 0 ? 20 * log10(Double(peak)) : nil,
                isUngated: isShort)
        }
    }
}
