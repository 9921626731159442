import CEbur128
import Foundation

/// Measures loudness with libebur128. The only owner of an `ebur128_state`.
public enum LoudnessMeter {
    /// Measures `samples` at `sampleRate`: mono, or `channelCount` channels interleaved
    /// (weighted per BS.1770: every channel of up to 5.1 counts 1.0 except surrounds).
    ///
    /// Integrated loudness is gated per BS.1770-4. A clip shorter than one 400 ms gating block
    /// has no gated block at all; it gets the ungated K-weighted level of the whole clip, which
    /// is what a listener hears, instead of "minus infinity".
    public static func measure(_ samples: [Float], channelCount: Int = 1, sampleRate: Int, truePeak: Bool = true) throws -> LoudnessMeasurement {
        let mode = Int32(EBUR128_MODE_I.rawValue) | (truePeak ? Int32(EBUR128_MODE_TRUE_PEAK.rawValue) : 0)
        var handle = ebur128_init(UInt32(channelCount), UInt(sampleRate), mode)
        guard let state = handle else {
            throw AudioPipelineError(.codecFailure, "cannot start the loudness meter", source: "loudness")
        }
        defer { ebur128_destroy(&handle) }

        let frames = samples.count / max(1, channelCount)
        let durationMs = UInt(Double(frames) * 1000 / Double(sampleRate))
        let isShort = durationMs < 400
        if isShort, durationMs > 0 {
            // NO_CHANGE only says the window already fits.
            let code = ebur128_set_max_window(state, durationMs)
            if code != Int32(EBUR128_ERROR_NO_CHANGE.rawValue) { try check(code) }
        }
        try samples.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try check(ebur128_add_frames_float(state, base, frames))
        }

        var loudness = -Double.infinity
        if isShort {
            if durationMs > 0 { try check(ebur128_loudness_window(state, durationMs, &loudness)) }
        } else {
            try check(ebur128_loudness_global(state, &loudness))
        }
        var peak = 0.0
        if truePeak {
            for channel in 0..<channelCount {
                var channelPeak = 0.0
                try check(ebur128_true_peak(state, UInt32(channel), &channelPeak))
                peak = max(peak, channelPeak)
            }
        }

        return LoudnessMeasurement(
            integratedLoudness: loudness.isFinite ? loudness : nil,
            truePeak: truePeak && peak > 0 ? 20 * log10(peak) : nil,
            isUngated: isShort)
    }

    private static func check(_ code: Int32) throws {
        guard code == Int32(EBUR128_SUCCESS.rawValue) else {
            throw AudioPipelineError(.codecFailure, "libebur128 error \(code)", source: "loudness")
        }
    }
}
