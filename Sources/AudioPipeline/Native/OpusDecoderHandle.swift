import COpus

/// Owns one `OpusDecoder*` from libopus, decoding at 48 kHz.
final class OpusDecoderHandle {
    private let state: OpaquePointer

    /// Creates the decoder with `opus_decoder_create`; `gain` is the header's output gain in
    /// Q7.8 dB, applied to everything decoded.
    init(channelCount: Int, gain: Int16) throws {
        var error: Int32 = 0
        let state = opus_decoder_create(Int32(OpusStream.sampleRate), Int32(channelCount), &error)
        try check(error, .libopus, "opus_decoder_create", "cannot create the decoder", source: "opus")
        guard let state else {
            throw NativeLibrary.libopus.failure(Int(OPUS_ALLOC_FAIL), "opus_decoder_create", "cannot create the decoder", as: .codecFailure, source: "opus")
        }
        self.state = state
        if gain != 0 {
            try check(vm_opus_decoder_set_gain(state, Int32(gain)), .libopus, "opus_decoder_ctl(OPUS_SET_GAIN)",
                      "cannot set the output gain", as: .invalidContainer, source: "opus")
        }
    }

    deinit { opus_decoder_destroy(state) }

    /// Decodes one packet into `buffer`, which holds `maximumFrame` frames; returns the frames
    /// decoded. A packet libopus refuses is a malformed container.
    func decode(_ packet: [UInt8], into buffer: inout [Float], maximumFrame: Int) throws -> Int {
        let result = packet.withUnsafeBufferPointer { input in
            buffer.withUnsafeMutableBufferPointer { out in
                opus_decode_float(state, input.baseAddress, Int32(input.count), out.baseAddress!, Int32(maximumFrame), 0)
            }
        }
        return Int(try check(result, .libopus, "opus_decode_float", "a packet cannot be decoded", as: .invalidContainer, source: "opus"))
    }
}
