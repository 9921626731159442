/// Converts mono audio to another rate with libsoxr at high quality (20-bit, linear phase, so
/// the output stays time-aligned with the input). The pipeline converts to Opus's 48 kHz.
public enum Resampler {
    /// A resampler fed in pieces (libsoxr's `soxr_process`), so a long recording is never held
    /// at two rates at once. Its output is the same as one call on the whole signal.
    public final class Stream {
        private let soxr: SoxrHandle
        private var output: [Float]

        /// A resampler from `inputRate` to `outputRate`, in Hz.
        public init(from inputRate: Int, to outputRate: Int) throws {
            soxr = try SoxrHandle(from: inputRate, to: outputRate)
            output = [Float](repeating: 0, count: 8192)
        }

        /// Resamples `input`, handing over whatever output is ready.
        public func process(_ input: UnsafeBufferPointer<Float>, output body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            var offset = 0
            while offset < input.count {
                let (consumed, produced) = try output.withUnsafeMutableBufferPointer { out in
                    try soxr.process(UnsafeBufferPointer(rebasing: input[offset...]), into: out)
                }
                offset += consumed
                try hand(produced, to: body)
                if consumed == 0, produced == 0 { break }
            }
        }

        /// Drains the filter's tail at the end of the input.
        public func finish(output body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            while true {
                let (_, produced) = try output.withUnsafeMutableBufferPointer { out in
                    try soxr.process(UnsafeBufferPointer(start: nil, count: 0), into: out)
                }
                guard produced > 0 else { return }
                try hand(produced, to: body)
            }
        }

        private func hand(_ produced: Int, to body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
            guard produced > 0 else { return }
            try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<produced])) }
        }
    }
}
