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
    public func resample(_ samples: [Float], from inputRate: Int) throws -> [Float] {
        guard inputRate != configuration.outputRate, !samples.isEmpty else { return samples }
        var output: [Float] = []
        output.reserveCapacity(Int(Double(samples.count) * Double(configuration.outputRate) / Double(inputRate)) + 16)
        let stream = try Stream(from: inputRate, to: configuration.outputRate)
        try samples.withUnsafeBufferPointer { input in
            try stream.process(input) { output.append(contentsOf: $0) }
        }
        try stream.finish { output.append(contentsOf: $0) }
        return output
    }

    /// A resampler fed in pieces (libsoxr's `soxr_process`), so a long recording is never held
    /// at two rates at once. Its output is the same as one call on the whole signal.
    public final class Stream {
        private let handle: soxr_t
        private var output: [Float]

        public init(from inputRate: Int, to outputRate: Int) throws {
            var error: soxr_error_t?
            var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
            var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
            guard let handle = soxr_create(Double(inputRate), Double(outputRate), 1, &error, &io, &quality, nil), error == nil else {
                throw Resampler.failure(error)
            }
            self.handle = handle
            output = [Float](repeating: 0, count: 8192)
        }

        deinit { soxr_delete(handle) }

        /// Resamples `input`, handing over whatever output is ready.
        public func process(_ input: UnsafeBufferPointer<Float>, output body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            guard !input.isEmpty else { return }
            var offset = 0
            repeat {
                var consumed = 0
                var produced = 0
                let error = output.withUnsafeMutableBufferPointer { out in
                    soxr_process(handle, input.baseAddress.map { $0 + offset }, input.count - offset, &consumed,
                                 out.baseAddress, out.count, &produced)
                }
                if let error { throw Resampler.failure(error) }
                offset += consumed
                if produced > 0 { try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<produced])) } }
                if consumed == 0, produced == 0 { break }
            } while offset < input.count
        }

        /// Drains the filter's tail at the end of the input.
        public func finish(output body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            while true {
                var produced = 0
                let error = output.withUnsafeMutableBufferPointer { out in
                    soxr_process(handle, nil, 0, nil, out.baseAddress, out.count, &produced)
                }
                if let error { throw Resampler.failure(error) }
                guard produced > 0 else { return }
                try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<produced])) }
            }
        }
    }

    static func failure(_ error: soxr_error_t?) -> AudioPipelineError {
        let reason = error.map { String(cString: $0) } ?? "unknown error"
        return AudioPipelineError(.codecFailure, "resampling failed (\(reason))", source: "resampler")
    }
}
