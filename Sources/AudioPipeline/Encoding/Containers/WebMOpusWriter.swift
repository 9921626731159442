/// Writes an `OpusStream` as Opus in WebM, the Matroska subset that Chromium, Firefox and
/// Safari from iOS 17.4 play in `<audio>`, without re-encoding.
///
/// The file, in order: the EBML header (DocType `webm`, version 4 for `CodecDelay`,
/// `SeekPreRoll` and `DiscardPadding`, readable as version 2, since a player that knows none
/// of them still plays the blocks), then one Segment holding a SeekHead, Info (0.5 ms
/// timestamps, the duration, "voicemsg" as muxing and writing app, the `TITLE` tag as the
/// segment title), Tracks, Tags, Cues and the Clusters. Cues come before the Clusters, so a
/// player reading from the start has the index without a second request for the file's end;
/// their cluster positions and the SeekHead's positions are written 8 bytes wide, which keeps
/// every size known before the positions are.
///
/// The one audio track follows the Matroska mapping of Opus: `A_OPUS`, `CodecPrivate` the
/// `OpusHead` header exactly as Ogg's first packet (so the pre-skip and output gain travel
/// with it), `CodecDelay` the pre-skip in nanoseconds, `SeekPreRoll` 80 ms (what Opus needs
/// to converge after a seek), 48 kHz. Block timestamps count from the first decoded sample,
/// pre-skip included; `CodecDelay` is what a player subtracts. Every block is a keyframe
/// SimpleBlock except the last, which is a BlockGroup when the message ends inside it, with
/// `DiscardPadding` the samples past the end in nanoseconds: the Matroska counterpart of Ogg's
/// last granule position, so ffmpeg decodes exactly `validSampleCount` samples. Nanoseconds
/// are rounded to the nearest; a reader that rounds back gets the same sample counts.
///
/// Timestamps tick every 0.5 ms (24 samples), not the usual 1 ms: every Opus frame length is
/// a multiple of 2.5 ms and libopus's pre-skip of 312 samples is 6.5 ms, so both land on
/// ticks. Demuxers that place the first sample at minus `CodecDelay` in ticks (ffmpeg's, and
/// Chromium's through it) otherwise round 6.5 ms to 7 and drop 24 samples of the message.
///
/// `DiscardPadding` trims one block only. When the end falls before the last packet, as in
/// Ogg files whose final page trims more than one packet, the packets that start after the
/// end are left out: they hold no sample of the message, and no earlier packet's output
/// depends on them.
///
/// `TrackUID` is 1 and there is no date: the file is a function of the stream, which the
/// server relies on when it rewraps a message on each request under one ETag.
public struct WebMOpusWriter: Sendable {
    /// Start a new cluster once the current one spans this many 48 kHz samples. Default
    /// 240 000 (5 s), the longest the WebM guidelines advise; at most 16 s is used, since a
    /// block's timestamp is a signed 16-bit count of ticks from its cluster's.
    public var clusterDuration: Int

    /// A writer whose clusters span `clusterDuration` samples.
    public init(clusterDuration: Int = 5 * OpusStream.sampleRate) {
        self.clusterDuration = clusterDuration
    }

    /// The stream as WebM bytes, with the default settings.
    public static func write(_ stream: OpusStream) throws -> [UInt8] {
        try WebMOpusWriter().write(stream)
    }

    /// Nanoseconds per tick of block and cluster timestamps: 0.5 ms, see above.
    static let timestampScale: Int64 = 500_000
    static let seekPreRoll: UInt64 = 80_000_000
    static let trackNumber: UInt8 = 1

    /// The stream as WebM bytes.
    ///
    /// Throws `.invalidContainer` if the stream cannot be described: more than two channels, a
    /// packet whose TOC is invalid, a `validSampleCount` outside what the packets decode to, or
    /// a tag Matroska cannot hold.
    public func write(_ stream: OpusStream) throws -> [UInt8] {
        let header = try OpusIdentificationHeader(stream)
        let sampleCounts = try stream.packets.map { try OpusPacket.sampleCount($0) }
        let decodedCount = sampleCounts.reduce(Int64(0)) { $0 + Int64($1) }
        let end = Int64(stream.preSkip) + stream.validSampleCount
        guard stream.validSampleCount >= 0, end <= decodedCount else {
            throw AudioPipelineError(
                .invalidContainer,
                "valid sample count \(stream.validSampleCount) plus pre-skip \(stream.preSkip) exceeds the \(decodedCount) samples the packets decode to")
        }
        let tags = try stream.tags.matroskaTags()
        let clusters = self.clusters(stream.packets, sampleCounts: sampleCounts, end: end)

        var info: [EBMLElement] = [EBMLElement(MatroskaID.timestampScale, unsigned: UInt64(Self.timestampScale))]
        // Duration must be positive when present (RFC 9559).
        if stream.validSampleCount > 0 {
            info.append(EBMLElement(MatroskaID.duration, float: Double(stream.validSampleCount) / Double(OpusStream.sampleRate) * 1e9 / Double(Self.timestampScale)))
        }
        if let title = stream.tags["TITLE"] {
            info.append(EBMLElement(MatroskaID.title, string: title))
        }
        info += [EBMLElement(MatroskaID.muxingApp, string: "voicemsg"), EBMLElement(MatroskaID.writingApp, string: "voicemsg")]
        let track = EBMLElement(MatroskaID.trackEntry, children: [
            EBMLElement(MatroskaID.trackNumber, unsigned: UInt64(Self.trackNumber)),
            EBMLElement(MatroskaID.trackUID, unsigned: 1),
            EBMLElement(MatroskaID.trackType, unsigned: 2),  // audio
            EBMLElement(MatroskaID.flagLacing, unsigned: 0),
            EBMLElement(MatroskaID.language, string: "und"),
            EBMLElement(MatroskaID.codecID, string: "A_OPUS"),
            EBMLElement(MatroskaID.codecPrivate, body: header.serialized),
            EBMLElement(MatroskaID.codecDelay, unsigned: UInt64(Self.nanoseconds(Int64(stream.preSkip)))),
            EBMLElement(MatroskaID.seekPreRoll, unsigned: Self.seekPreRoll),
            EBMLElement(MatroskaID.audio, children: [
                EBMLElement(MatroskaID.samplingFrequency, float: Double(OpusStream.sampleRate)),
                EBMLElement(MatroskaID.channels, unsigned: UInt64(stream.channelCount)),
            ]),
        ])

        let levelOne = [EBMLElement(MatroskaID.info, children: info), EBMLElement(MatroskaID.tracks, children: [track])]
            + (tags.map { [$0] } ?? [])
        let segment = Self.segment(levelOne, clusters: clusters)

        var bytes = Self.ebmlHeader.serialized
        bytes.reserveCapacity(bytes.count + segment.byteCount)
        segment.append(to: &bytes)
        return bytes
    }

    /// The Segment: SeekHead, the other level-one elements, Cues, then the Clusters. The
    /// SeekHead and Cues hold positions relative to the Segment's body, found by laying the
    /// elements out once with placeholder positions of the same width.
    private static func segment(_ levelOne: [EBMLElement], clusters: [(timestamp: Int64, element: EBMLElement)]) -> EBMLElement {
        func seekHead(_ positions: [UInt64]) -> EBMLElement {
            EBMLElement(MatroskaID.seekHead, children: zip(levelOne.map(\.id) + (clusters.isEmpty ? [] : [MatroskaID.cues]), positions).map {
                EBMLElement(MatroskaID.seek, children: [
                    EBMLElement(MatroskaID.seekID, body: EBMLElement.encodedID($0.0)),
                    EBMLElement(MatroskaID.seekPosition, unsigned: $0.1, width: 8),
                ])
            })
        }
        func cues(_ positions: [UInt64]) -> EBMLElement {
            EBMLElement(MatroskaID.cues, children: zip(clusters, positions).map {
                EBMLElement(MatroskaID.cuePoint, children: [
                    EBMLElement(MatroskaID.cueTime, unsigned: UInt64($0.0.timestamp)),
                    EBMLElement(MatroskaID.cueTrackPositions, children: [
                        EBMLElement(MatroskaID.cueTrack, unsigned: UInt64(trackNumber)),
                        EBMLElement(MatroskaID.cueClusterPosition, unsigned: $0.1, width: 8),
                    ]),
                ])
            })
        }
        let indexed = levelOne.count + (clusters.isEmpty ? 0 : 1)
        let headSize = seekHead(Array(repeating: 0, count: indexed)).byteCount
        let cuesSize = clusters.isEmpty ? 0 : cues(Array(repeating: 0, count: clusters.count)).byteCount

        var position = UInt64(headSize)
        var levelOnePositions: [UInt64] = []
        for element in levelOne {
            levelOnePositions.append(position)
            position += UInt64(element.byteCount)
        }
        if !clusters.isEmpty { levelOnePositions.append(position) }
        position += UInt64(cuesSize)
        var clusterPositions: [UInt64] = []
        for cluster in clusters {
            clusterPositions.append(position)
            position += UInt64(cluster.element.byteCount)
        }
        return EBMLElement(
            MatroskaID.segment,
            children: [seekHead(levelOnePositions)] + levelOne + (clusters.isEmpty ? [] : [cues(clusterPositions)]) + clusters.map(\.element))
    }

    /// The packets that start before `end`, in clusters of at most `clusterDuration` samples,
    /// each with its timestamp in ticks.
    private func clusters(_ packets: [[UInt8]], sampleCounts: [Int], end: Int64) -> [(timestamp: Int64, element: EBMLElement)] {
        let span = Int64(min(max(clusterDuration, 1), 16 * OpusStream.sampleRate))
        var clusters: [(timestamp: Int64, element: EBMLElement)] = []
        var blocks: [EBMLElement] = []
        var clusterTimestamp: Int64 = 0
        var clusterStart: Int64 = 0
        var start: Int64 = 0
        func close() {
            guard !blocks.isEmpty else { return }
            clusters.append((clusterTimestamp, EBMLElement(MatroskaID.cluster, children: blocks)))
            blocks = []
        }
        for (packet, count) in zip(packets, sampleCounts) where start < end {
            if !blocks.isEmpty, start - clusterStart >= span { close() }
            if blocks.isEmpty {
                clusterStart = start
                clusterTimestamp = Self.ticks(start)
                blocks.append(EBMLElement(MatroskaID.timestamp, unsigned: UInt64(clusterTimestamp)))
            }
            let relative = Int16(Self.ticks(start) - clusterTimestamp)
            let padding = start + Int64(count) - end
            if padding > 0 {
                // Only the last packet kept can reach past the end.
                blocks.append(EBMLElement(MatroskaID.blockGroup, children: [
                    EBMLElement(MatroskaID.block, body: Self.block(packet, relativeTimestamp: relative, flags: 0)),
                    EBMLElement(MatroskaID.discardPadding, signed: Self.nanoseconds(padding)),
                ]))
            } else {
                // 0x80: a keyframe; every Opus packet decodes on its own.
                blocks.append(EBMLElement(MatroskaID.simpleBlock, body: Self.block(packet, relativeTimestamp: relative, flags: 0x80)))
            }
            start += Int64(count)
        }
        close()
        return clusters
    }

    /// A block's body (RFC 9559, "Block Structure"): the track number as a variable-length
    /// integer, the timestamp relative to the cluster's, the flags, then the unlaced frame.
    private static func block(_ packet: [UInt8], relativeTimestamp: Int16, flags: UInt8) -> [UInt8] {
        var body: [UInt8] = [0x80 | trackNumber]
        body.reserveCapacity(4 + packet.count)
        body.appendBigEndian(relativeTimestamp)
        body.append(flags)
        body.append(contentsOf: packet)
        return body
    }

    /// 48 kHz samples in timestamp ticks, rounded to the nearest.
    static func ticks(_ samples: Int64) -> Int64 {
        rounded(samples * (1_000_000_000 / timestampScale), dividedBy: Int64(OpusStream.sampleRate))
    }

    /// 48 kHz samples in nanoseconds, rounded to the nearest.
    static func nanoseconds(_ samples: Int64) -> Int64 {
        rounded(samples * 1_000_000_000, dividedBy: Int64(OpusStream.sampleRate))
    }

    private static func rounded(_ numerator: Int64, dividedBy denominator: Int64) -> Int64 {
        (numerator + denominator / 2) / denominator
    }

    /// EBML 1, DocType `webm` 4, readable by version 2 readers; IDs of at most 4 bytes and
    /// sizes of at most 8, the EBML defaults written out.
    static let ebmlHeader = EBMLElement(MatroskaID.ebml, children: [
        EBMLElement(MatroskaID.ebmlVersion, unsigned: 1),
        EBMLElement(MatroskaID.ebmlReadVersion, unsigned: 1),
        EBMLElement(MatroskaID.ebmlMaxIDLength, unsigned: 4),
        EBMLElement(MatroskaID.ebmlMaxSizeLength, unsigned: 8),
        EBMLElement(MatroskaID.docType, string: "webm"),
        EBMLElement(MatroskaID.docTypeVersion, unsigned: 4),
        EBMLElement(MatroskaID.docTypeReadVersion, unsigned: 2),
    ])
}
