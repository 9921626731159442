/// Writes an `OpusStream` as an Ogg Opus file (RFC 7845), without re-encoding.
///
/// The identification and comment headers get pages of their own, as the RFC requires. Audio
/// pages are flushed about every `pageDuration` samples or `pageSize` bytes, whichever comes
/// first. Granule positions count pre-skip plus decoded samples; the last page's granule is
/// pre-skip plus `validSampleCount`, which tells decoders where to trim the end (§4.5).
public struct OggOpusWriter: Sendable {
    /// The Ogg stream serial number. Default nil: a random one, so that files can be chained
    /// or multiplexed without a clash.
    public var serialNumber: UInt32?
    /// Flush an audio page once it holds this many 48 kHz samples. Default 48 000 (1 s): a
    /// seek granularity of about a second at about 0.4 % overhead at 24 kb/s.
    public var pageDuration: Int
    /// Flush an audio page once its packets reach this many bytes. Default 4096, which keeps
    /// pages small at high bitrates.
    public var pageSize: Int

    /// A writer with these settings.
    public init(serialNumber: UInt32? = nil, pageDuration: Int = OpusStream.sampleRate, pageSize: Int = 4_096) {
        self.serialNumber = serialNumber
        self.pageDuration = pageDuration
        self.pageSize = pageSize
    }

    /// The stream as Ogg Opus bytes, with the default settings.
    public static func write(_ stream: OpusStream) throws -> [UInt8] {
        try OggOpusWriter().write(stream)
    }

    /// The stream as Ogg Opus bytes.
    ///
    /// Throws `.invalidContainer` if the stream cannot be described in Ogg Opus: more than two
    /// channels, a packet whose TOC is invalid, or a `validSampleCount` outside what the packets
    /// decode to.
    public func write(_ stream: OpusStream) throws -> [UInt8] {
        let header = try OpusIdentificationHeader(stream)
        let comments = try stream.tags.commentHeader()
        let sampleCounts = try stream.packets.map { try OpusPacket.sampleCount($0) }
        let decodedCount = sampleCounts.reduce(Int64(0)) { $0 + Int64($1) }
        let preSkip = Int64(stream.preSkip)
        guard stream.validSampleCount >= 0, preSkip + stream.validSampleCount <= decodedCount else {
            throw AudioPipelineError(
                .invalidContainer,
                "valid sample count \(stream.validSampleCount) plus pre-skip \(preSkip) exceeds the \(decodedCount) samples the packets decode to")
        }
        let finalGranule = preSkip + stream.validSampleCount

        var pages = OggPacketWriter(serialNumber: serialNumber ?? UInt32.random(in: .min ... .max))
        pages.append(header.serialized, granulePosition: 0)
        pages.flush()
        pages.append(comments, granulePosition: 0)
        pages.flush(endOfStream: stream.packets.isEmpty)

        var granule: Int64 = 0
        var samplesOnPage = 0
        for (index, packet) in stream.packets.enumerated() {
            granule += Int64(sampleCounts[index])
            samplesOnPage += sampleCounts[index]
            let isLast = index == stream.packets.count - 1
            pages.append(packet, granulePosition: isLast ? finalGranule : granule)
            if isLast {
                pages.flush(endOfStream: true)
            } else if samplesOnPage >= pageDuration || pages.pendingBodySize >= pageSize,
                // End trimming may only cut into the last page (§4.5), so no earlier page
                // may end past the final granule.
                granule <= finalGranule
            {
                pages.flush()
                samplesOnPage = 0
            }
        }
        return pages.bytes
    }
}
