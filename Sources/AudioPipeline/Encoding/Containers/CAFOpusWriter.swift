/// Writes an `OpusStream` as Opus in a Core Audio Format file, the container in which
/// AVAudioPlayer and AVPlayer play Opus on iOS and macOS.
///
/// Chunks, in order: `desc` (48 kHz 'opus', frames per packet, channels), `chan` (mono or
/// stereo layout), `info` (the tags), `pakt` (packet sizes, with priming = pre-skip and
/// remainder = the end trimming, so a decoder that honours them yields exactly
/// `validSampleCount` samples) and `data` (edit count 0, then the packets back to back).
///
/// There is no `kuki` (magic cookie) chunk. The CAF specification asks for one only for
/// formats that need out-of-band decoder configuration, such as AAC; everything an Opus
/// decoder needs for mapping family 0 (rate, channels, frames per packet, pre-skip) is in
/// `desc` and `pakt`. ffmpeg's CAF muxer writes none for Opus either, and such files are
/// reported to play in Safari and AVFoundation since iOS 11. (This could not be checked
/// against a file written by Apple's own encoder from Linux.) Putting `pakt` before `data`
/// lets a player start before the whole file has arrived.
///
/// Decoders differ on `pakt`: Core Audio reads it as the file's packet table info (priming
/// and remainder), but ffmpeg 5.1's demuxer ignores priming and remainder and decodes every
/// frame; the tests pin that down.
///
/// Packets normally all last the same (20 ms from voicemsg's encoder); when they do not, as
/// with opusenc's shorter last packet at 40 or 60 ms, `desc` says 0 frames per packet and
/// the table lists each packet's frames too.
public enum CAFOpusWriter {
    /// The stream as CAF bytes. A stream of more than two channels, or with an output gain (which CAF cannot carry), throws `.invalidContainer`.
    public static func write(_ stream: OpusStream) throws -> [UInt8] {
        guard (1...2).contains(stream.channelCount) else {
            throw AudioPipelineError(.invalidContainer, "cannot write \(stream.channelCount) channels in CAF; voicemsg writes mono or stereo Opus")
        }
        guard stream.outputGain == 0 else {
            // CAF has no field for it; dropping it would change the loudness silently.
            throw AudioPipelineError(
                .invalidContainer, "the stream has an output gain of \(stream.outputGain) (Q7.8 dB), which CAF cannot carry")
        }
        let frameCounts = try stream.packets.map { try OpusPacket.sampleCount($0) }
        let totalFrames = frameCounts.reduce(Int64(0)) { $0 + Int64($1) }
        let remainder = totalFrames - Int64(stream.preSkip) - stream.validSampleCount
        guard stream.validSampleCount >= 0, stream.preSkip >= 0, remainder >= 0 else {
            throw AudioPipelineError(
                .invalidContainer,
                "valid sample count \(stream.validSampleCount) plus pre-skip \(stream.preSkip) exceeds the \(totalFrames) samples the packets decode to")
        }
        guard stream.preSkip <= Int(Int32.max), remainder <= Int64(Int32.max) else {
            throw AudioPipelineError(.invalidContainer, "priming or remainder frames do not fit the 32-bit CAF fields")
        }

        // Constant frames per packet is what Apple's encoder writes; mixed packet durations
        // need 0 here and a frame count per packet in the table.
        let constantFrames = Set(frameCounts).count == 1 ? frameCounts[0] : nil
        let description = CAFAudioDescription(
            sampleRate: Double(OpusStream.sampleRate), formatID: CAFAudioDescription.opusFormatID,
            framesPerPacket: UInt32(constantFrames ?? 0), channelsPerFrame: UInt32(stream.channelCount))
        let table = CAFPacketTable(
            validFrameCount: stream.validSampleCount, primingFrameCount: Int32(stream.preSkip),
            remainderFrameCount: Int32(remainder), packetSizes: stream.packets.map(\.count),
            packetFrameCounts: constantFrames == nil ? frameCounts : nil)

        var bytes = Array("caff".utf8)
        bytes.appendBigEndian(UInt16(1))  // file version
        bytes.appendBigEndian(UInt16(0))  // file flags
        appendChunk("desc", description.serialized, to: &bytes)
        appendChunk("chan", channelLayout(stream.channelCount), to: &bytes)
        appendChunk("info", try stream.tags.cafInfo(), to: &bytes)
        appendChunk("pakt", table.serialized, to: &bytes)
        var data: [UInt8] = []
        data.reserveCapacity(4 + stream.packetBytes)
        data.appendBigEndian(UInt32(0))  // edit count
        for packet in stream.packets { data.append(contentsOf: packet) }
        appendChunk("data", data, to: &bytes)
        return bytes
    }

    /// kCAFChannelLayoutTag_Mono (100 << 16 | 1) or _Stereo (101 << 16 | 2), no bitmap, no
    /// channel descriptions.
    static func channelLayout(_ channelCount: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt32(channelCount == 1 ? 100 << 16 | 1 : 101 << 16 | 2))
        bytes.appendBigEndian(UInt32(0))
        bytes.appendBigEndian(UInt32(0))
        return bytes
    }

    private static func appendChunk(_ type: String, _ body: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: type.utf8)
        bytes.appendBigEndian(Int64(body.count))
        bytes.append(contentsOf: body)
    }
}
