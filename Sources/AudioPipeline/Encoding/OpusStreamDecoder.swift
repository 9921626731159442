/// Decodes an `OpusStream` with libopus, honouring the pre-skip, the end trimming and the
/// header's output gain, so the result is exactly the message as a player renders it.
public enum OpusStreamDecoder {
    /// Mono 48 kHz samples (stereo is averaged), `validSampleCount` long.
    public static func decode(_ stream: OpusStream) throws -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(Int(stream.validSampleCount))
        try decode(stream) { output.append(contentsOf: $0) }
        return output
    }

    /// Hands over the mono 48 kHz samples (stereo is averaged) packet by packet, in order,
    /// `validSampleCount` in all: the whole message is never held.
    public static func decode(_ stream: OpusStream, samples body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        guard stream.channelCount == 2 else { return try decodeInterleaved(stream, samples: body) }
        var downmix = Downmix(channelCount: 2)
        try decodeInterleaved(stream) { try downmix($0, body) }
    }

    /// Hands over the interleaved samples packet by packet, without the pre-skip and the end
    /// padding. Throws when the packets do not cover `validSampleCount`.
    public static func decodeInterleaved(_ stream: OpusStream, samples body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let channels = stream.channelCount
        guard (1...2).contains(channels) else {
            throw AudioPipelineError(.invalidContainer, "\(channels)-channel Opus is not supported", source: "opus")
        }
        let decoder = try OpusDecoderHandle(channelCount: channels, gain: stream.outputGain)
        let maximumFrame = 5760
        var buffer = [Float](repeating: 0, count: maximumFrame * channels)
        var skip = stream.preSkip
        var remaining = Int(stream.validSampleCount)
        var decodedFrames = 0
        for packet in stream.packets {
            let frames = try decoder.decode(packet, into: &buffer, maximumFrame: maximumFrame)
            decodedFrames += frames
            let dropped = min(skip, frames)
            skip -= dropped
            let kept = min(frames - dropped, remaining)
            guard kept > 0 else { continue }
            remaining -= kept
            try buffer.withUnsafeBufferPointer { all in
                try body(UnsafeBufferPointer(rebasing: all[(dropped * channels)..<((dropped + kept) * channels)]))
            }
        }
        guard remaining == 0 else {
            throw AudioPipelineError(
                .invalidContainer,
                "the stream decodes to \(max(0, decodedFrames - stream.preSkip)) samples but claims \(stream.validSampleCount)",
                source: "opus")
        }
    }
}
