/// Reads Opus in a Core Audio Format file into an `OpusStream`: `desc` must say 48 kHz
/// 'opus' with one or two channels, `pakt` gives the packet boundaries and the priming
/// (pre-skip), valid and remainder frames, `info` the tags. Other chunks (`chan`, `kuki`,
/// `free`...) are skipped. CAF has no input sample rate field, so the stream reports 48 kHz.
///
/// Anything malformed or truncated throws `.invalidContainer`.
public enum CAFOpusReader {
    /// The stream in a CAF file's bytes.
    public static func read(_ bytes: some Collection<UInt8>) throws -> OpusStream {
        let bytes = Array(bytes)
        guard !bytes.isEmpty else { throw AudioPipelineError(.invalidContainer, "empty input: not a CAF file") }
        var reader = ByteReader(bytes, context: "CAF")
        let fileType = try reader.readBytes(4, "file type")
        guard fileType == Array("caff".utf8) else {
            throw reader.error("no 'caff' file type at the start; not a Core Audio Format file")
        }
        let version = try reader.readBigEndian(UInt16.self, "file version")
        guard version == 1 else { throw reader.error("unsupported CAF file version \(version)") }
        try reader.skip(2, "file flags")

        var description: CAFAudioDescription?
        var tableBytes: [UInt8]?
        var infoBytes: [UInt8]?
        var audio: [UInt8]?
        while !reader.isAtEnd {
            let start = reader.offset
            let type = String(decoding: try reader.readBytes(4, "chunk type"), as: UTF8.self)
            let declaredSize = try reader.readBigEndian(Int64.self, "size of chunk '\(type)'")
            // -1 is legal only for a final data chunk whose size was never filled in.
            let size: Int
            if declaredSize == -1, type == "data" {
                size = reader.remaining
            } else {
                guard declaredSize >= 0, declaredSize <= Int64(reader.remaining) else {
                    throw reader.error("chunk '\(type)' at byte \(start) declares \(declaredSize) bytes but \(reader.remaining) remain; the file is truncated or corrupted")
                }
                size = Int(declaredSize)
            }
            let body = try reader.readBytes(size, "chunk '\(type)'")
            switch type {
            case "desc": description = try parseOnce(description, "desc") { var r = ByteReader(body, context: "CAF desc chunk"); return try CAFAudioDescription(parsing: &r) }
            case "pakt": tableBytes = try parseOnce(tableBytes, "pakt") { body }
            case "info": infoBytes = try parseOnce(infoBytes, "info") { body }
            case "data": audio = try parseOnce(audio, "data") { body }
            default: continue
            }
        }

        guard let description else { throw reader.error("no 'desc' chunk") }
        guard description.formatID == CAFAudioDescription.opusFormatID else {
            throw reader.error("the audio is '\(CAFAudioDescription.fourCharacterCode(description.formatID))', not Opus")
        }
        guard description.sampleRate == Double(OpusStream.sampleRate) else {
            throw reader.error("Opus in CAF must be described at \(OpusStream.sampleRate) Hz, the desc chunk says \(description.sampleRate)")
        }
        guard (1...2).contains(description.channelsPerFrame) else {
            throw reader.error("\(description.channelsPerFrame) channels; only mono and stereo Opus are supported")
        }
        guard let tableBytes else { throw reader.error("no 'pakt' chunk, so packet boundaries are unknown") }
        guard let audio else { throw reader.error("no 'data' chunk") }
        var tableReader = ByteReader(tableBytes, context: "CAF pakt chunk")
        let table = try CAFPacketTable(parsing: &tableReader, hasVariableFrames: description.framesPerPacket == 0)

        var dataReader = ByteReader(audio, context: "CAF data chunk")
        try dataReader.skip(4, "edit count")
        var packets: [[UInt8]] = []
        packets.reserveCapacity(table.packetSizes.count)
        var totalFrames: Int64 = 0
        for (index, size) in table.packetSizes.enumerated() {
            let packet = try dataReader.readBytes(size, "packet \(index) of \(table.packetSizes.count)")
            let frames: Int
            do {
                frames = try OpusPacket.sampleCount(packet)
            } catch let error as AudioPipelineError {
                throw dataReader.error("packet \(index): \(error.message)")
            }
            let declared = table.packetFrameCounts?[index] ?? Int(description.framesPerPacket)
            guard frames == declared else {
                throw dataReader.error("packet \(index) lasts \(frames) frames, but the file declares \(declared)")
            }
            totalFrames += Int64(frames)
            packets.append(packet)
        }
        guard dataReader.isAtEnd else {
            throw dataReader.error("\(dataReader.remaining) bytes after the last packet the packet table lists")
        }
        let accounted = table.validFrameCount + Int64(table.primingFrameCount) + Int64(table.remainderFrameCount)
        guard accounted == totalFrames else {
            throw tableReader.error(
                "priming \(table.primingFrameCount) + valid \(table.validFrameCount) + remainder \(table.remainderFrameCount) frames = \(accounted), but the packets hold \(totalFrames)")
        }
        guard table.primingFrameCount <= Int32(UInt16.max) else {
            throw tableReader.error("\(table.primingFrameCount) priming frames is more than an Opus pre-skip can hold")
        }

        var tags = OpusTags(vendor: "")
        if let infoBytes {
            var infoReader = ByteReader(infoBytes, context: "CAF info chunk")
            tags = try OpusTags(parsingCAFInfo: &infoReader)
        }
        return OpusStream(
            channelCount: Int(description.channelsPerFrame), preSkip: Int(table.primingFrameCount),
            inputSampleRate: OpusStream.sampleRate, outputGain: 0, packets: packets,
            validSampleCount: table.validFrameCount, tags: tags)
    }

    private static func parseOnce<T>(_ existing: T?, _ type: String, _ parse: () throws -> T) throws -> T {
        guard existing == nil else {
            throw AudioPipelineError(.invalidContainer, "CAF: more than one '\(type)' chunk")
        }
        return try parse()
    }
}
