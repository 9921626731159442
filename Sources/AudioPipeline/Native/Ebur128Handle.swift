import CEbur128

/// Owns one `ebur128_state` from libebur128, measuring integrated loudness (mode I).
final class Ebur128Handle {
    // Not optional: an optional stored property starts out nil, so a throwing init would
    // reach `deinit` with no state to destroy.
    private let state: UnsafeMutablePointer<ebur128_state>

    /// Creates the meter with `ebur128_init`.
    init(channelCount: Int, sampleRate: Int) throws {
        guard let state = ebur128_init(UInt32(clamping: channelCount), UInt(clamping: sampleRate), Int32(EBUR128_MODE_I.rawValue)) else {
            throw AudioPipelineError(
                .codecFailure, "cannot start the loudness meter for \(channelCount) channels at \(sampleRate) Hz",
                source: "loudness",
                cause: .init(library: NativeLibrary.libebur128.rawValue, function: "ebur128_init", code: nil, reason: "no state"))
        }
        // From here `deinit` frees the state, also when the caller's next call throws.
        self.state = state
    }

    deinit {
        var state: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&state)
    }

    /// Sets the longest window `loudness(window:)` may measure, with `ebur128_set_max_window`.
    func setMaximumWindow(milliseconds: Int) throws {
        let code = ebur128_set_max_window(state, UInt(milliseconds))
        // NO_CHANGE only says that the window already fits.
        guard code != Int32(EBUR128_ERROR_NO_CHANGE.rawValue) else { return }
        try check(code, .libebur128, "ebur128_set_max_window", "cannot size the loudness window", source: "loudness")
    }

    /// Adds interleaved frames with `ebur128_add_frames_float`.
    func add(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws {
        guard let base = samples.baseAddress else { return }
        try check(ebur128_add_frames_float(state, base, frames), .libebur128, "ebur128_add_frames_float",
                  "cannot measure the loudness", source: "loudness")
    }

    /// Gated integrated loudness in LUFS, with `ebur128_loudness_global`; -infinity for silence.
    func integratedLoudness() throws -> Double {
        var loudness = -Double.infinity
        try check(ebur128_loudness_global(state, &loudness), .libebur128, "ebur128_loudness_global",
                  "cannot measure the loudness", source: "loudness")
        return loudness
    }

    /// The loudness of the last `milliseconds`, ungated, with `ebur128_loudness_window`.
    func loudness(window milliseconds: Int) throws -> Double {
        var loudness = -Double.infinity
        try check(ebur128_loudness_window(state, UInt(milliseconds), &loudness), .libebur128, "ebur128_loudness_window",
                  "cannot measure the loudness", source: "loudness")
        return loudness
    }
}
