#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import CFFmpeg
import DecoderWire

/// The encode mode: mono 16-bit PCM from descriptor 0 to AAC-LC in an M4A, by FFmpeg's own AAC
/// encoder and MP4 muxer, for the browsers that play no Opus (Safari before iOS 17.4).
///
/// Timing is the muxer's: the encoder's priming (1024 samples) goes into the track's edit list,
/// and the movie's time scale is the sample rate, so the edit list ends on the last real sample
/// and a player that honours it (Apple's do; `ffprobe` reports it as the duration) plays exactly
/// the samples it was given. The file is bit-exact (no creation time, no library version), so the
/// same PCM always gives the same bytes; its tags are the parent's to add.
final class AACFileEncoder {
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let output: MemoryOutput
    private let stream: UnsafeMutablePointer<AVStream>
    private let frameSize: Int
    private let maximumSeconds: Double
    private var samplesSent = 0

    init(bitrate: Int, maximumSeconds: Double) throws {
        self.maximumSeconds = maximumSeconds
        let rate = DecoderWire.encoderSampleRate
        // The file's size is bounded by the bitrate; the encoder overshoots its target on short
        // or busy passages, and the muxer's tables add a few bytes a packet.
        let seconds = min(maximumSeconds, 24 * 3600)
        output = try MemoryOutput(limit: Int(seconds * Double(bitrate) / 8 * 4) + (1 << 20))
        guard let encoder = avcodec_find_encoder_by_name("aac") else {
            throw DecodeFailure.unsupported("this FFmpeg has no AAC encoder")
        }
        guard let codec = avcodec_alloc_context3(encoder), let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw DecodeFailure.unreadable("out of memory")
        }
        self.codec = codec
        self.frame = frame
        self.packet = packet
        var format: UnsafeMutablePointer<AVFormatContext>?
        // "ipod" is FFmpeg's M4A muxer: an MP4 whose brand says audio (`M4A `), as Apple's own.
        guard avformat_alloc_output_context2(&format, nil, "ipod", nil) >= 0, let format else {
            throw DecodeFailure.unsupported("this FFmpeg has no M4A muxer")
        }
        self.format = format
        format.pointee.pb = output.context
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
        guard let stream = avformat_new_stream(format, nil) else { throw DecodeFailure.unreadable("out of memory") }
        self.stream = stream

        codec.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        codec.pointee.sample_rate = Int32(rate)
        av_channel_layout_default(&codec.pointee.ch_layout, 1)
        codec.pointee.bit_rate = Int64(bitrate)
        codec.pointee.profile = FF_PROFILE_AAC_LOW
        codec.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        codec.pointee.thread_count = 1
        codec.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        try Self.check(avcodec_open2(codec, encoder, nil), "cannot open the AAC encoder")
        frameSize = Int(codec.pointee.frame_size)
        try Self.check(avcodec_parameters_from_context(stream.pointee.codecpar, codec), "cannot set up the AAC stream")
        stream.pointee.time_base = codec.pointee.time_base

        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(rate)
        try Self.check(av_channel_layout_copy(&frame.pointee.ch_layout, &codec.pointee.ch_layout), "cannot set up a frame")
        frame.pointee.nb_samples = Int32(frameSize)
        try Self.check(av_frame_get_buffer(frame, 0), "cannot set up a frame")

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        // Movie time in samples, not the default milliseconds: the edit list's length is then
        // the message's to the sample, not rounded down to a millisecond.
        vm_av_dict_set(&options, "movie_timescale", "\(rate)")
        try Self.check(avformat_write_header(format, &options), "cannot start the M4A file")
    }

    deinit {
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
        if let format {
            // The custom output is freed by `output`, not by libavformat.
            format.pointee.pb = nil
            avformat_free_context(format)
        }
    }

    /// Reads the PCM to its end from `fd`, encodes it and returns the whole M4A file.
    func run(reading fd: Int32) throws -> [UInt8] {
        let maximumSamples = Int(maximumSeconds * Double(DecoderWire.encoderSampleRate))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var held = 0
        var pending = [Float]()
        pending.reserveCapacity(frameSize + buffer.count / 2)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress! + held, raw.count - held)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw DecodeFailure.unreadable("cannot read the PCM to encode (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            held += count
            let whole = held & ~1
            buffer.withUnsafeBytes { raw in
                for offset in stride(from: 0, to: whole, by: 2) {
                    let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self))
                    pending.append(Float(value) / 32768)
                }
            }
            total += whole / 2
            guard total <= maximumSamples else {
                throw DecodeFailure.unsupported("more than \(FFmpegDecoder.decimal(maximumSeconds / 60)) minutes to encode")
            }
            if held > whole { buffer[0] = buffer[whole] }
            held -= whole
            var start = 0
            while pending.count - start >= frameSize {
                try send(pending[start..<(start + frameSize)])
                start += frameSize
            }
            pending.removeFirst(start)
        }
        guard held == 0 else { throw DecodeFailure.unreadable("the PCM to encode ends in the middle of a sample") }
        guard total > 0 else { throw DecodeFailure.unreadable("no PCM to encode") }
        // The encoder takes a short last frame; the edit list then ends where the PCM did.
        if !pending.isEmpty { try send(pending[...]) }
        try Self.check(avcodec_send_frame(codec, nil), "cannot encode the audio")
        try drain()
        try Self.check(av_write_trailer(format), "cannot finish the M4A file")
        if let error = FFmpegLog.firstError { throw DecodeFailure.unreadable("cannot encode the audio (FFmpeg: \(error))") }
        return output.bytes
    }

    private func send(_ samples: ArraySlice<Float>) throws {
        guard let frame else { return }
        try Self.check(av_frame_make_writable(frame), "cannot encode the audio")
        frame.pointee.nb_samples = Int32(samples.count)
        frame.pointee.pts = Int64(samplesSent)
        let target = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
        samples.withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: $0.count) }
        samplesSent += samples.count
        try Self.check(avcodec_send_frame(codec, frame), "cannot encode the audio")
        try drain()
    }

    /// Every packet the encoder has ready, into the file.
    private func drain() throws {
        guard let codec, let packet else { return }
        while true {
            let status = avcodec_receive_packet(codec, packet)
            if status == vm_averror_eagain() || status == vm_averror_eof() { return }
            try Self.check(status, "cannot encode the audio")
            defer { av_packet_unref(packet) }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try Self.check(av_write_frame(format, packet), "cannot write the M4A file")
        }
    }

    private static func check(_ status: Int32, _ what: String) throws {
        guard status < 0 else { return }
        if status == vm_averror_enomem() {
            throw DecodeFailure.unsupported("\(what): the encoder's memory limit was reached")
        }
        throw DecodeFailure.unreadable("\(what) (\(FFmpegDecoder.describe(status)))")
    }
}
