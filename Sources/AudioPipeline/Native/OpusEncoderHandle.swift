import COpus

/// Owns one `OpusEncoder*` from libopus, set up for 48 kHz mono as `configuration` says.
///
/// Not `Sendable`: each encoding task makes its own.
final class OpusEncoderHandle {
    private let state: OpaquePointer

    /// Creates the encoder with `opus_encoder_create` and applies every setting through
    /// `opus_encoder_ctl`. The configuration must already be valid (`OpusEncoder` checks it).
    init(configuration: OpusEncoder.Configuration) throws {
        var error: Int32 = 0
        let state = opus_encoder_create(Int32(OpusStream.sampleRate), 1, Int32(vm_opus_application_audio()), &error)
        try check(error, .libopus, "opus_encoder_create", "cannot create the encoder", source: "opus")
        guard let state else {
            throw NativeLibrary.libopus.failure(Int(OPUS_ALLOC_FAIL), "opus_encoder_create", "cannot create the encoder", as: .codecFailure, source: "opus")
        }
        // From here `deinit` frees the state, also when a setting below throws.
        self.state = state
        let c = configuration
        try set(vm_opus_set_bitrate(state, Int32(c.bitrate)), "OPUS_SET_BITRATE", "bitrate")
        try set(vm_opus_set_vbr(state, c.isVariableBitrate ? 1 : 0), "OPUS_SET_VBR", "VBR")
        try set(vm_opus_set_vbr_constraint(state, 0), "OPUS_SET_VBR_CONSTRAINT", "VBR constraint")
        try set(vm_opus_set_complexity(state, Int32(c.complexity)), "OPUS_SET_COMPLEXITY", "complexity")
        try set(vm_opus_set_signal(state, Int32(c.isVoice ? vm_opus_signal_voice() : vm_opus_signal_music())), "OPUS_SET_SIGNAL", "signal")
        try set(vm_opus_set_lsb_depth(state, 24), "OPUS_SET_LSB_DEPTH", "LSB depth")
        try set(vm_opus_set_expert_frame_duration(state, vm_opus_framesize_arg(Int32(c.frameMilliseconds * 10))),
                "OPUS_SET_EXPERT_FRAME_DURATION", "frame duration")
    }

    deinit { opus_encoder_destroy(state) }

    /// The encoder's delay in samples, which the stream's pre-skip must cover.
    func lookahead() throws -> Int {
        var value: Int32 = 0
        try check(vm_opus_get_lookahead(state, &value), .libopus, "opus_encoder_ctl(OPUS_GET_LOOKAHEAD)", "cannot read the lookahead", source: "opus")
        return Int(value)
    }

    /// What libopus says the encoder is set to, request by request (OPUS_GET_*): the tests
    /// check the settings here rather than in the configuration that asked for them.
    func setting(_ request: Setting) throws -> Int {
        var value: Int32 = 0
        let result: Int32
        switch request {
        case .bitrate: result = vm_opus_get_bitrate(state, &value)
        case .vbr: result = vm_opus_get_vbr(state, &value)
        case .complexity: result = vm_opus_get_complexity(state, &value)
        case .signal: result = vm_opus_get_signal(state, &value)
        case .application: result = vm_opus_get_application(state, &value)
        case .frameDuration: result = vm_opus_get_expert_frame_duration(state, &value)
        }
        try check(result, .libopus, "opus_encoder_ctl(OPUS_GET_\(request))", "cannot read a setting", source: "opus")
        return Int(value)
    }

    enum Setting { case bitrate, vbr, complexity, signal, application, frameDuration }

    /// Encodes one frame of `frameSize` samples into `output`; returns the packet's size.
    func encode(_ frame: [Float], frameSize: Int, into output: inout [UInt8]) throws -> Int {
        let result = frame.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                opus_encode_float(state, input.baseAddress!, Int32(frameSize), out.baseAddress!, Int32(out.count))
            }
        }
        return Int(try check(result, .libopus, "opus_encode_float", "encoding failed", source: "opus"))
    }

    private func set(_ result: Int32, _ request: String, _ what: String) throws {
        try check(result, .libopus, "opus_encoder_ctl(\(request))", "cannot set \(what)", source: "opus")
    }
}
