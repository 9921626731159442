import CSoxr

/// Owns one `soxr_t` from libsoxr: a mono Float resampler at high quality (20-bit, linear
/// phase, so the output stays time-aligned with the input).
final class SoxrHandle {
    private let handle: soxr_t

    /// Creates the resampler with `soxr_create`.
    init(from inputRate: Int, to outputRate: Int) throws {
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let handle = soxr_create(Double(inputRate), Double(outputRate), 1, &error, &io, &quality, nil)
        try check(error, "soxr_create", "resampling failed", source: "resampler")
        guard let handle else {
            throw AudioPipelineError(.codecFailure, "resampling failed (soxr_create returned no resampler)", source: "resampler")
        }
        self.handle = handle
    }

    deinit { soxr_delete(handle) }

    /// Resamples from `input` into `output` with `soxr_process`: returns how many input
    /// samples it took and how many output samples it wrote. Empty `input` drains the
    /// filter's tail at the end of the signal.
    func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) throws -> (consumed: Int, produced: Int) {
        var consumed = 0
        var produced = 0
        let error = input.isEmpty
            ? soxr_process(handle, nil, 0, nil, output.baseAddress, output.count, &produced)
            : soxr_process(handle, input.baseAddress, input.count, &consumed, output.baseAddress, output.count, &produced)
        try check(error, "soxr_process", "resampling failed", source: "resampler")
        return (consumed, produced)
    }
}
