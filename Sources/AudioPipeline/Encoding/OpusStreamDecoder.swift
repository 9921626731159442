import COpus

/// Decodes an `OpusStream` with libopus, honouring the pre-skip, the end trimming and the
/// header's output gain, so the result is exactly the message as a player renders it.
public enum OpusStreamDecoder {
    /// Interleaved 48 kHz samples, `validSampleCount` frames long.
    public static func decodeInterleaved(_ stream: OpusStream) throws -> [Float] {
        let channels = stream.channelCount
        guard (1...2).contains(channels) else {
            throw AudioPipelineError(.invalidContainer, "\(channels)-channel Opus is not supported", source: "opus")
        }
        let decoder = try DecoderHandle(channels: channels, gain: stream.outputGain)
        let maximumFrame = 5760
        var buffer = [Float](repeating: 0, count: maximumFrame * channels)
        var output: [Float] = []
        let wanted = Int(stream.validSampleCount) * channels
        output.reserveCapacity(wanted + (stream.preSkip + maximumFrame) * channels)
        for packet in stream.packets {
            let frames = try decoder.decode(packet, into: &buffer, maximumFrame: maximumFrame)
            output.append(contentsOf: buffer[0..<(frames * channels)])
        }
        let skip = min(stream.preSkip * channels, output.count)
        output.removeFirst(skip)
        if output.count > wanted { output.removeLast(output.count - wanted) }
        guard output.count == wanted else {
            throw AudioPipelineError(
                .invalidContainer,
                "the stream decodes to \(output.count / channels) samples but claims \(stream.validSampleCount)",
                source: "opus")
        }
        return output
    }

    /// Mono 48 kHz samples (stereo is averaged), `validSampleCount` long.
    public static func decode(_ stream: OpusStream) throws -> [Float] {
        let interleaved = try decodeInterleaved(stream)
        guard stream.channelCount == 2 else { return interleaved }
        var mono = [Float](repeating: 0, count: interleaved.count / 2)
        for i in mono.indices { mono[i] = (interleaved[2 * i] + interleaved[2 * i + 1]) / 2 }
        return mono
    }
}

/// Owns one `OpusDecoder*` from libopus.
private final class DecoderHandle {
    let state: OpaquePointer

    init(channels: Int, gain: Int16) throws {
        var error: Int32 = 0
        guard let state = opus_decoder_create(48_000, Int32(channels), &error), error == OPUS_OK else {
            throw AudioPipelineError(.codecFailure, "cannot create the decoder (\(String(cString: opus_strerror(error))))", source: "opus")
        }
        self.state = state
        if gain != 0 { _ = vm_opus_decoder_set_gain(state, Int32(gain)) }
    }

    deinit { opus_decoder_destroy(state) }

    func decode(_ packet: [UInt8], into buffer: inout [Float], maximumFrame: Int) throws -> Int {
        let result = packet.withUnsafeBufferPointer { input in
            buffer.withUnsafeMutableBufferPointer { out in
                opus_decode_float(state, input.baseAddress, Int32(input.count), out.baseAddress!, Int32(maximumFrame), 0)
            }
        }
        guard result >= 0 else {
            throw AudioPipelineError(.invalidContainer, "a packet cannot be decoded (\(String(cString: opus_strerror(result))))", source: "opus")
        }
        return Int(result)
    }
}
