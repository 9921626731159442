/// The `desc` chunk (CAF specification, "Audio Description Chunk"): Core Audio's
/// AudioStreamBasicDescription, big-endian. For Opus, Apple's tools and ffmpeg both write
/// 48 000 Hz, format 'opus', no flags, 0 bytes per packet (VBR), the frames of one packet,
/// the channel count and 0 bits per channel.
struct CAFAudioDescription: Equatable {
    static let opusFormatID: UInt32 = 0x6F70_7573  // 'opus'
    static let byteCount = 32

    var sampleRate: Double
    var formatID: UInt32
    var formatFlags: UInt32 = 0
    var bytesPerPacket: UInt32 = 0
    /// 0 when packets last different numbers of frames; the packet table then lists them.
    var framesPerPacket: UInt32
    var channelsPerFrame: UInt32
    var bitsPerChannel: UInt32 = 0

    var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(sampleRate.bitPattern)
        bytes.appendBigEndian(formatID)
        bytes.appendBigEndian(formatFlags)
        bytes.appendBigEndian(bytesPerPacket)
        bytes.appendBigEndian(framesPerPacket)
        bytes.appendBigEndian(channelsPerFrame)
        bytes.appendBigEndian(bitsPerChannel)
        return bytes
    }

    init(sampleRate: Double, formatID: UInt32, framesPerPacket: UInt32, channelsPerFrame: UInt32) {
        self.sampleRate = sampleRate
        self.formatID = formatID
        self.framesPerPacket = framesPerPacket
        self.channelsPerFrame = channelsPerFrame
    }

    init(parsing reader: inout ByteReader) throws {
        sampleRate = Double(bitPattern: try reader.readBigEndian(UInt64.self, "sample rate"))
        formatID = try reader.readBigEndian(UInt32.self, "format ID")
        formatFlags = try reader.readBigEndian(UInt32.self, "format flags")
        bytesPerPacket = try reader.readBigEndian(UInt32.self, "bytes per packet")
        framesPerPacket = try reader.readBigEndian(UInt32.self, "frames per packet")
        channelsPerFrame = try reader.readBigEndian(UInt32.self, "channels per frame")
        bitsPerChannel = try reader.readBigEndian(UInt32.self, "bits per channel")
    }

    /// The format ID as its four characters, for messages.
    static func fourCharacterCode(_ value: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}
