import CFFmpeg

/// Turns a decoded frame, in whatever sample format the decoder gives (planar or packed, integer
/// or float), into interleaved 32-bit float, in pieces small enough for one wire record.
struct SampleConverter {
    let channelCount: Int
    private static let piece = 4096

    init(channelCount: Int) {
        self.channelCount = channelCount
    }

    /// Sends the frames in `range` of `frame` (all of them unless trimmed).
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, frames range: Range<Int>, send: (UnsafeRawBufferPointer) -> Void) throws {
        let count = min(range.upperBound, Int(frame.pointee.nb_samples))
        guard count > range.lowerBound, let data = frame.pointee.extended_data else { return }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        let sampleOf: (UnsafeMutablePointer<UInt8>, Int) -> Float
        switch av_get_packed_sample_fmt(format) {
        case AV_SAMPLE_FMT_FLT:
            sampleOf = { base, i in UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i * 4, as: Float.self) }
        case AV_SAMPLE_FMT_DBL:
            sampleOf = { base, i in Float(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i * 8, as: Double.self)) }
        case AV_SAMPLE_FMT_S16:
            sampleOf = { base, i in Float(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i * 2, as: Int16.self)) / 32768 }
        case AV_SAMPLE_FMT_S32:
            sampleOf = { base, i in Float(Double(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i * 4, as: Int32.self)) / 2_147_483_648) }
        case AV_SAMPLE_FMT_S64:
            sampleOf = { base, i in Float(Double(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i * 8, as: Int64.self)) / 9.223372036854775808e18) }
        case AV_SAMPLE_FMT_U8:
            sampleOf = { base, i in (Float(base[i]) - 128) / 128 }
        default:
            throw DecodeFailure.unreadable("the decoder gave samples in a format voicemsg does not convert")
        }
        let framesPerPiece = max(1, Self.piece / channelCount)
        var values = [Float](repeating: 0, count: framesPerPiece * channelCount)
        var start = range.lowerBound
        while start < count {
            let frames = min(framesPerPiece, count - start)
            for frame in 0..<frames {
                for channel in 0..<channelCount {
                    let value = planar
                        ? sampleOf(data[channel]!, start + frame)
                        : sampleOf(data[0]!, (start + frame) * channelCount + channel)
                    values[frame * channelCount + channel] = value
                }
            }
            values.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[0..<(frames * channelCount * 4)])) }
            start += frames
        }
    }
}
