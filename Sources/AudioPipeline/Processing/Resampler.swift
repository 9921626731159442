import CSoxr

/// Converts mono audio to the pipeline's rate with libsoxr at high quality (20-bit, linear
/// phase, so the output stays time-aligned with the input).
public struct Resampler: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// The output rate in Hz. Default: 48 kHz, the rate Opus codes at.
        public var outputRate: Int = 48_000
        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Returns `samples` at `configuration.outputRate`; the input itself when the rates match.
    /// Wraps `soxr_oneshot`.
    public func resample(_ samples: [Float], from inputRate: Int) throws -> [Float] {
        let outputRate = configuration.outputRate
        guard inputRate != outputRate, !samples.isEmpty else { return samples }
        let outputCount = Int((Double(samples.count) * Double(outputRate) / Double(inputRate)).rounded())
        var output = [Float](repeating: 0, count: outputCount)
        var produced = 0
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let error = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                soxr_oneshot(
                    Double(inputRate), Double(outputRate), 1,
                    input.baseAddress, input.count, nil,
                    out.baseAddress, out.count, &produced,
                    &io, &quality, nil)
            }
        }
        if let error {
            throw AudioPipelineError(.codecFailure, "resampling failed (\(String(cString: error)))", source: "resampler")
        }
        if produced < outputCount { output.removeLast(outputCount - produced) }
        return output
    }
}
