import CFFmpeg

/// AAC-LC's own delay, where no container states the encoder's: every AAC-LC stream decodes
/// 1024 samples late, because the first frame's transform overlaps a frame before the audio.
/// An MP4 edit list, iTunSMPB or a CAF packet table say how much an encoder primed in all
/// (FFmpeg's encoder 1024, Apple's 2112) and FFmpeg applies that; raw ADTS carries no such field,
/// and an MP4 fragmented without an edit list leaves it out, so those would start 1024 samples
/// (21 ms at 48 kHz) late. Dropping the codec's delay is right for any encoder; the encoder's
/// look-ahead beyond it, where there is one, stays unknown.
enum AACPriming {
    static let frames = 1024

    /// AAC-LC decoded at its core rate, with no skip stated in the codec parameters. HE-AAC
    /// (SBR doubles the rate and adds filter-bank delay) is left as FFmpeg decodes it.
    static func applies(to parameters: AVCodecParameters, decodedRate: Int) -> Bool {
        parameters.codec_id == AV_CODEC_ID_AAC && parameters.profile == FF_PROFILE_AAC_LOW
            && parameters.initial_padding == 0 && decodedRate == Int(parameters.sample_rate)
    }

    /// Whether `packet` carries skip-samples side data with a skip at the start: the demuxer
    /// read an edit list, iTunSMPB or a codec delay, and the decoder drops those samples itself.
    static func statesSkip(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        stated(packet) > 0
    }

    /// The skip at the start that `packet` states, in the units its demuxer wrote it in.
    static func stated(_ packet: UnsafeMutablePointer<AVPacket>) -> Int {
        var size = 0
        guard let data = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 4 else { return 0 }
        return Int(UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24)
    }

    /// An MP4 edit list's priming, taken off `packet` to be dropped by the caller: the skip in
    /// the track's time base, or 0 when the packet states none. The MOV demuxer writes the edit
    /// list's media time in the track's time base, as skip-samples side data on the first
    /// packet and a discard flag on each packet wholly inside it, but FFmpeg 5.1's AAC decoder
    /// doubles a stated skip once it finds SBR (it takes it for core-rate samples), so an
    /// HE-AAC M4A whose track runs at the output rate, as FFmpeg's muxer and Apple's write it,
    /// lost twice its priming: 115 ms of speech for the FDK encoder's 5058 samples. Taken off
    /// both ways and converted by the caller from the time base to the decoded rate, the same
    /// skip is right with or without SBR.
    /// Skip-samples side data after the first decoded frame is left to libavcodec (`taking`
    /// false); a real file has it on the first packet only.
    static func takeEditListSkip(_ packet: UnsafeMutablePointer<AVPacket>, taking: Bool) -> Int {
        // Before the edit's start the timestamps are negative.
        if packet.pointee.pts != vm_av_nopts_value(), packet.pointee.pts < 0 {
            packet.pointee.flags &= ~AV_PKT_FLAG_DISCARD
        }
        var size = 0
        guard taking, let data = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 4 else { return 0 }
        let skip = stated(packet)
        for index in 0..<4 { data[index] = 0 }
        return skip
    }

    /// `skip` in a time base of `timeBase`, as samples at `rate`.
    static func samples(_ skip: Int, timeBase: AVRational, rate: Int) -> Int {
        guard timeBase.den > 0, timeBase.num > 0 else { return skip }
        return Int((Double(skip) * Double(rate) * Double(timeBase.num) / Double(timeBase.den)).rounded())
    }
}
