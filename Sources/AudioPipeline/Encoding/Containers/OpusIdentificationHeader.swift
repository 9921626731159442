/// The `OpusHead` packet (RFC 7845 §5.1). voicemsg supports channel mapping family 0, which
/// covers mono and stereo; other families carry a mapping table `OpusStream` cannot express,
/// so they are rejected with a clear message rather than rewrapped wrongly.
struct OpusIdentificationHeader: Equatable {
    static let magic: [UInt8] = Array("OpusHead".utf8)

    var channelCount: Int
    var preSkip: Int
    var inputSampleRate: Int
    var outputGain: Int16

    init(channelCount: Int, preSkip: Int, inputSampleRate: Int, outputGain: Int16) {
        self.channelCount = channelCount
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGain = outputGain
    }

    init(_ stream: OpusStream) throws {
        guard (1...2).contains(stream.channelCount) else {
            throw AudioPipelineError(
                .invalidContainer,
                "cannot write \(stream.channelCount) channels: channel mapping family 0 holds 1 or 2")
        }
        guard (0...Int(UInt16.max)).contains(stream.preSkip) else {
            throw AudioPipelineError(.invalidContainer, "pre-skip \(stream.preSkip) does not fit in 16 bits")
        }
        guard (0...Int(UInt32.max)).contains(stream.inputSampleRate) else {
            throw AudioPipelineError(.invalidContainer, "input sample rate \(stream.inputSampleRate) does not fit in 32 bits")
        }
        self.init(
            channelCount: stream.channelCount, preSkip: stream.preSkip,
            inputSampleRate: stream.inputSampleRate, outputGain: stream.outputGain)
    }

    var serialized: [UInt8] {
        var bytes = Self.magic
        bytes.append(1)  // version
        bytes.append(UInt8(channelCount))
        bytes.appendLittleEndian(UInt16(preSkip))
        bytes.appendLittleEndian(UInt32(inputSampleRate))
        bytes.appendLittleEndian(outputGain)
        bytes.append(0)  // channel mapping family 0: mono or stereo, no table
        return bytes
    }

    init(parsing packet: [UInt8]) throws {
        var reader = ByteReader(packet, context: "OpusHead")
        guard packet.starts(with: Self.magic) else {
            throw reader.error("the first packet is not an Opus identification header (no 'OpusHead' magic); not an Ogg Opus file")
        }
        try reader.skip(Self.magic.count, "magic")
        let version = try reader.readUInt8("version")
        // Only the major version (upper four bits) breaks compatibility (RFC 7845 §5.1).
        guard version >> 4 == 0 else {
            throw reader.error("unsupported version \(version) (only major version 0 is defined)")
        }
        let channels = Int(try reader.readUInt8("channel count"))
        let preSkip = Int(try reader.readLittleEndian(UInt16.self, "pre-skip"))
        let rate = Int(try reader.readLittleEndian(UInt32.self, "input sample rate"))
        let gain = try reader.readLittleEndian(Int16.self, "output gain")
        let family = try reader.readUInt8("channel mapping family")
        guard channels > 0 else { throw reader.error("channel count is 0") }
        guard family == 0 else {
            throw reader.error("channel mapping family \(family) (\(channels) channels) is not supported; only family 0 (mono or stereo) is")
        }
        guard channels <= 2 else {
            throw reader.error("channel mapping family 0 allows 1 or 2 channels, the header says \(channels)")
        }
        self.init(channelCount: channels, preSkip: preSkip, inputSampleRate: rate, outputGain: gain)
    }
}
