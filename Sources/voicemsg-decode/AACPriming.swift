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
        var size = 0
        guard let data = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 4 else { return false }
        let skip = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        return skip > 0
    }
}
