import CFFmpeg
import DecoderWire

/// One audio stream demuxed and decoded with FFmpeg, streamed out as interleaved Float.
///
/// Timing is FFmpeg's: the demuxers turn an MP4 edit list or iTunSMPB (AAC priming), Matroska's
/// CodecDelay and Opus pre-skip into skip-samples side data, and libavcodec drops those samples
/// itself because `AV_CODEC_FLAG2_SKIP_MANUAL` is left off, except an MP4 edit list's priming
/// for AAC, which FFmpeg gets wrong for HE-AAC and is dropped here. Where nothing states the AAC
/// priming (raw ADTS, an MP4 fragmented without an edit list), the codec's own delay is dropped
/// here (`AACPriming`).
final class FFmpegDecoder {
    /// The demuxers a recording can come in; anything else is refused before it is parsed.
    static let containers = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,aac,amr,amrnb,amrwb,caf,ogg,wav,w64,flac,mp3,aiff,au"
    /// The decoders a recording can need. Opus, AAC and AMR come first; PCM for CAF and WAV.
    static let decoders = [
        "aac", "aac_fixed", "alac", "opus", "libopus", "vorbis", "libvorbis", "mp3", "mp3float", "mp2", "mp2float",
        "amrnb", "amrwb", "libopencore_amrnb", "libopencore_amrwb", "flac", "gsm", "gsm_ms",
        "pcm_s8", "pcm_u8", "pcm_s16le", "pcm_s16be", "pcm_s24le", "pcm_s24be", "pcm_s32le", "pcm_s32be",
        "pcm_f32le", "pcm_f32be", "pcm_f64le", "pcm_f64be", "pcm_alaw", "pcm_mulaw",
    ].joined(separator: ",")
    /// FFmpeg's own AMR decoders skip DTX (comfort noise) frames and stop early on them; the
    /// opencore decoders, where libavcodec has them (Debian's libavcodec-extra), read them all.
    static let preferredDecoders: [AVCodecID: String] = [
        AV_CODEC_ID_AMR_NB: "libopencore_amrnb",
        AV_CODEC_ID_AMR_WB: "libopencore_amrwb",
    ]

    private let input: FFmpegInput
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoderName: String
    private let maximumSeconds: Double
    /// Frames to drop at the start and the most to keep, where the container says so and
    /// FFmpeg does not apply it (CAF's packet table).
    private var trim: (skip: Int, keep: Int)?
    /// The container or the codec parameters state how many samples to skip at the start.
    private var skipStated = false
    /// An MP4 edit list's priming for AAC, in the track's time base, dropped here instead of by
    /// libavcodec (`AACPriming.takeEditListSkip`).
    private var editListSkip = 0
    /// The audio chunk runs to the end of the file (`OpenEndedAudioChunk`).
    private let openEndedAudio: Bool

    init(input: FFmpegInput, maximumSeconds: Double, packetTable: CAFPacketTable? = nil, openEndedAudio: Bool = false) throws {
        self.input = input
        self.openEndedAudio = openEndedAudio
        self.maximumSeconds = maximumSeconds
        guard let context = avformat_alloc_context() else { throw DecodeFailure.unreadable("out of memory") }
        context.pointee.pb = input.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        vm_av_dict_set(&options, "format_whitelist", Self.containers)
        vm_av_dict_set(&options, "codec_whitelist", Self.decoders)
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // avformat_open_input frees the context when it fails.
        let status = avformat_open_input(&opened, nil, nil, &options)
        guard status >= 0, let opened else {
            throw DecodeFailure.unreadable("not a recording FFmpeg can read (\(Self.describe(status)))")
        }
        format = opened
        // Until every stored property is set, a throw skips deinit: these refusals close the
        // input themselves (found by the decode fuzz target as a leak per refused file).
        func refuse(_ failure: DecodeFailure) -> DecodeFailure {
            var context: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&context)
            return failure
        }
        FFmpegLog.reset()
        let found = avformat_find_stream_info(opened, nil)
        guard found >= 0 else {
            throw refuse(.unreadable("cannot read the streams (\(Self.describe(found)))"))
        }

        var chosen: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, &chosen, 0)
        guard index >= 0, let stream = opened.pointee.streams[Int(index)] else {
            throw refuse(.unreadable(index == vm_averror_decoder_not_found()
                ? "the audio is in a codec voicemsg does not decode"
                : "the file holds no audio stream"))
        }
        self.stream = stream
        for other in 0..<Int(opened.pointee.nb_streams) where other != Int(index) {
            opened.pointee.streams[other]!.pointee.discard = AVDISCARD_ALL
        }
        let parameters = stream.pointee.codecpar!
        if let name = Self.preferredDecoders[parameters.pointee.codec_id], let preferred = avcodec_find_decoder_by_name(name) {
            chosen = preferred
        }
        guard let decoder = chosen else {
            throw refuse(.unreadable("the audio is in a codec voicemsg does not decode (\(String(cString: avcodec_get_name(parameters.pointee.codec_id))))"))
        }
        decoderName = String(cString: decoder.pointee.name)
        guard let codec = avcodec_alloc_context3(decoder) else { throw DecodeFailure.unreadable("out of memory") }
        self.codec = codec
        try Self.check(avcodec_parameters_to_context(codec, parameters), "cannot set up the \(decoderName) decoder")
        codec.pointee.pkt_timebase = stream.pointee.time_base
        // One thread: no thread stacks against the address-space limit, and nothing to gain on
        // audio this small.
        codec.pointee.thread_count = 1
        var codecOptions: OpaquePointer?
        defer { av_dict_free(&codecOptions) }
        vm_av_dict_set(&codecOptions, "codec_whitelist", Self.decoders)
        try Self.check(avcodec_open2(codec, decoder, &codecOptions), "cannot open the \(decoderName) decoder")
        if let packetTable, String(cString: opened.pointee.iformat.pointee.name) == "caf",
           parameters.pointee.initial_padding == 0 {
            trim = (packetTable.primingFrames, packetTable.validFrames)
        }
    }

    deinit {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
        withExtendedLifetime(input) {}
    }

    /// Demuxes and decodes to the end, sending the format after the first frame, then samples.
    func run(_ output: WireWriter) throws {
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw DecodeFailure.unreadable("out of memory")
        }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        defer {
            av_packet_free(&packetPointer)
            av_frame_free(&framePointer)
        }
        var converter: SampleConverter?
        var frames = 0
        var seen = 0
        var maximumFrames = Int.max
        var ended = false
        var shortPacketSeen = false
        var damage = Damage()
        FFmpegLog.reset()

        func receive() throws {
            while true {
                let status = avcodec_receive_frame(codec, frame)
                if status == vm_averror_eagain() || status == vm_averror_eof() { return }
                if Self.isDamage(status) {
                    damage.note(status)
                    continue
                }
                try Self.check(status, "cannot decode the audio")
                defer { av_frame_unref(frame) }
                try checkLog()
                let rate = Int(frame.pointee.sample_rate)
                let channels = Int(frame.pointee.ch_layout.nb_channels)
                if converter == nil {
                    guard rate > 0, channels > 0 else { throw DecodeFailure.unreadable("the decoder gave no sample rate or channel count") }
                    if trim == nil, !skipStated, AACPriming.applies(to: stream.pointee.codecpar.pointee, decodedRate: rate) {
                        trim = (AACPriming.frames, Int.max / 2)
                    }
                    if trim == nil, editListSkip > 0 {
                        trim = (AACPriming.samples(editListSkip, timeBase: stream.pointee.time_base, rate: rate), Int.max / 2)
                    }
                    converter = SampleConverter(channelCount: channels)
                    maximumFrames = Int(maximumSeconds * Double(rate))
                    output.send(.format, wireFormat(sampleRate: rate, channelCount: channels).encoded)
                }
                guard let converted = converter, rate == Int(wireRate), channels == converted.channelCount else {
                    throw DecodeFailure.unsupported("the sample rate or channel count changes mid-stream (to \(rate) Hz, \(channels) channels)")
                }
                var kept = 0..<Int(frame.pointee.nb_samples)
                if let trim {
                    let start = max(0, trim.skip - seen)
                    let end = max(start, min(kept.upperBound, trim.skip + trim.keep - seen))
                    kept = min(start, kept.upperBound)..<end
                }
                seen += Int(frame.pointee.nb_samples)
                frames += kept.count
                guard frames <= maximumFrames else {
                    throw DecodeFailure.unsupported("more than \(Self.decimal(maximumSeconds / 60)) minutes long")
                }
                try converted.convert(frame, frames: kept) { output.send(.samples, $0) }
            }
        }

        while !ended {
            let status = av_read_frame(format, packet)
            if status == vm_averror_eof() {
                ended = true
                try Self.check(avcodec_send_packet(codec, nil), "cannot decode the audio")
            } else {
                try Self.check(status, "cannot read the file")
                defer { av_packet_unref(packet) }
                try checkLog()
                guard packet.pointee.stream_index == stream.pointee.index else { continue }
                damage.packets += 1
                if takesEditListSkip { editListSkip += AACPriming.takeEditListSkip(packet, taking: converter == nil) }
                if !skipStated { skipStated = editListSkip > 0 || AACPriming.statesSkip(packet) }
                if shortPacketSeen {
                    throw DecodeFailure.unreadable("truncated or corrupt: a packet of the audio is cut short")
                }
                if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                    // A WAV written to a pipe (`ffmpeg -f wav pipe:1`) declares no data size
                    // (0 or 0xFFFFFFFF), so its demuxer asks for whole blocks until the file
                    // ends and the last read comes back short: for raw PCM in an open-ended
                    // chunk that is where the audio ends, not damage, provided no packet
                    // follows. Under a declared size it still means the file was cut.
                    guard isRawPCM, openEndedAudio else {
                        throw DecodeFailure.unreadable("truncated or corrupt: a packet of the audio is cut short")
                    }
                    shortPacketSeen = true
                    // A file cut mid-sample ends in part of a frame, which the PCM decoder
                    // refuses: only the whole frames are audio.
                    let align = Int(stream.pointee.codecpar.pointee.block_align)
                    if align > 0 {
                        packet.pointee.size -= Int32(Int(packet.pointee.size) % align)
                        if packet.pointee.size == 0 { continue }
                    }
                }
                let sent = avcodec_send_packet(codec, packet)
                if Self.isDamage(sent) {
                    damage.note(sent)
                } else {
                    try Self.check(sent, "cannot decode the audio")
                }
            }
            try receive()
        }
        try damage.check(decodedAny: converter != nil)
        try checkLog()
        guard frames > 0, converter != nil else { throw DecodeFailure.unreadable("the file holds no audio samples") }
        try checkLength(decodedSeconds: Double(frames) / wireRate)
    }

    private var wireRate: Double = 0

    /// The packets the decoder refused. Decoding goes on past one, to say how much of the
    /// recording is damaged, and then the recording is refused: concealing the holes would send
    /// the runner a message with words missing, and the friend can record it again at once.
    private struct Damage {
        var packets = 0
        var damaged = 0
        /// Of those, the packets that asked for what FFmpeg does not implement.
        var unimplemented = 0
        var first: String?

        mutating func note(_ status: Int32) {
            damaged += 1
            if status == vm_averror_patchwelcome() { unimplemented += 1 }
            if first == nil { first = FFmpegDecoder.describe(status) }
            // The decoder logged why as it refused the packet: that is counted here, not a
            // second sign of damage.
            FFmpegLog.reset()
        }

        /// A stream none of whose packets decoded, each for a feature FFmpeg lacks, is not
        /// damaged: it is a kind of audio this decoder cannot read, and is refused as such.
        func check(decodedAny: Bool) throws {
            guard damaged > 0 else { return }
            if !decodedAny, unimplemented == damaged {
                throw DecodeFailure.unreadable("cannot decode the audio (\(first ?? "not implemented"))")
            }
            throw DecodeFailure.unreadable(
                "damaged: \(damaged) of \(packets) packets of the audio cannot be decoded (FFmpeg: \(first ?? "invalid data"))")
        }
    }

    /// AAC from the MOV demuxer (MP4, M4A, MOV, 3GP), whose stated skip is an edit list's.
    private lazy var takesEditListSkip: Bool = stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_AAC
        && String(cString: format!.pointee.iformat!.pointee.name).hasPrefix("mov,")

    /// Uncompressed PCM (FFmpeg numbers the PCM codecs 0x10000 up to the ADPCM ones at
    /// 0x11000): any whole number of frames is valid audio, so a short packet loses nothing.
    private var isRawPCM: Bool {
        (0x10000..<0x11000).contains(stream.pointee.codecpar.pointee.codec_id.rawValue)
    }

    private func wireFormat(sampleRate: Int, channelCount: Int) -> DecoderWire.Format {
        wireRate = Double(sampleRate)
        let container = format!.pointee.iformat!.pointee
        let descriptor = avcodec_descriptor_get(stream.pointee.codecpar.pointee.codec_id)
        return DecoderWire.Format(
            sampleRate: sampleRate, channelCount: channelCount,
            container: String(cString: container.name), containerDescription: String(cString: container.long_name),
            codec: descriptor.map { String(cString: $0.pointee.name) } ?? "",
            codecDescription: descriptor.flatMap { $0.pointee.long_name.map { String(cString: $0) } } ?? "",
            decoder: decoderName, declaredSeconds: declaredSeconds)
    }

    /// The length the container states in its tables, in seconds; nil when it states none, or
    /// when FFmpeg only guessed it from the bitrate (ADTS, AMR).
    private var declaredSeconds: Double? {
        guard let format, format.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE else { return nil }
        let timeBase = stream.pointee.time_base
        if stream.pointee.duration > 0, stream.pointee.duration != vm_av_nopts_value(), timeBase.den > 0 {
            return Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
        }
        if format.pointee.duration > 0, format.pointee.duration != vm_av_nopts_value() {
            return Double(format.pointee.duration) / Double(vm_av_time_base())
        }
        return nil
    }

    /// A container that declares more than the file holds was cut short: the audio decoded is
    /// not the recording. The margin allows for priming and padding, a few codec frames.
    private func checkLength(decodedSeconds: Double) throws {
        guard let declared = declaredSeconds, declared > decodedSeconds + 0.25 + declared * 0.02 else { return }
        throw DecodeFailure.unreadable(
            "truncated: the container declares \(Self.decimal(declared)) s but only \(Self.decimal(decodedSeconds)) s could be decoded")
    }

    /// An error the demuxer or the decoder logged and recovered from still means lost audio.
    private func checkLog() throws {
        if let error = FFmpegLog.firstError {
            throw DecodeFailure.unreadable("broken or corrupt file (FFmpeg: \(error))")
        }
    }

    /// Whether the decoder refused a packet for what is in it: invalid data, a broken AAC or
    /// AC-3 frame header, or a feature FFmpeg has not implemented. FFmpeg's parser of those
    /// headers answers with its own codes (`AAC_AC3_PARSE_ERROR_*` in libavcodec's
    /// aac_ac3_parser.h, −0x1030c0a to −0x7030c0a: no sync word, a bad sample rate or frame
    /// size...), not `AVERROR_INVALIDDATA`. WebKit's recorder has written AAC packets that
    /// begin like an ADTS header with an impossible sample rate, and packets whose bits ask for
    /// a tool the AAC decoder lacks (`AVERROR_PATCHWELCOME`) among packets that decode; taken
    /// for a failing decoder, such a recording was refused as "cannot decode the audio", where
    /// the friend needs to hear that it came out damaged. (A stream whose every packet asks
    /// for what is missing is another matter: see `Damage.check`.)
    private static func isDamage(_ status: Int32) -> Bool {
        if status == vm_averror_invaliddata() || status == vm_averror_patchwelcome() { return true }
        guard status < 0 else { return false }
        let code = -Int(status)
        return code & 0xFF_FFFF == 0x03_0C0A && (1...7).contains(code >> 24)
    }

    private static func check(_ status: Int32, _ what: String) throws {
        guard status < 0 else { return }
        if status == vm_averror_enomem() {
            throw DecodeFailure.unsupported("\(what): the decoder's memory limit was reached")
        }
        throw DecodeFailure.unreadable("\(what) (\(describe(status)))")
    }

    /// 7.3, 600, 0.25: two decimals at most, without Foundation's formatter.
    static func decimal(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func describe(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(status, &buffer, buffer.count)
        if let logged = FFmpegLog.firstError { return "\(String(cText: buffer)): \(logged)" }
        return String(cText: buffer)
    }
}
