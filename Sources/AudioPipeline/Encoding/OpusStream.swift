/// An encoded Opus stream independent of its container: the packets plus everything a
/// container needs to say about them. Ogg (RFC 7845) and CAF both wrap the same value, so a
/// message can be rewrapped without re-encoding.
public struct OpusStream: Sendable, Equatable {
    /// Channels in the stream (voicemsg writes 1).
    public var channelCount: Int
    /// Samples at 48 kHz that the decoder must discard at the start (the encoder's lookahead).
    public var preSkip: Int
    /// The sample rate of the original input, informational only (RFC 7845 §5.1).
    public var inputSampleRate: Int
    /// Output gain to apply on decode, in Q7.8 dB (RFC 7845 §5.1). voicemsg writes 0.
    public var outputGain: Int16
    /// The audio packets, in order, without container framing.
    public var packets: [[UInt8]]
    /// The number of decoded 48 kHz samples that are real audio, after the pre-skip and before
    /// the end trimming: the exact length of the message.
    public var validSampleCount: Int64
    /// The comment header.
    public var tags: OpusTags

    /// A stream of these packets and properties.
    public init(
        channelCount: Int, preSkip: Int, inputSampleRate: Int, outputGain: Int16 = 0,
        packets: [[UInt8]], validSampleCount: Int64, tags: OpusTags
    ) {
        self.channelCount = channelCount
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGain = outputGain
        self.packets = packets
        self.validSampleCount = validSampleCount
        self.tags = tags
    }

    /// Opus always decodes at 48 kHz.
    public static let sampleRate = 48_000

    /// The exact duration of the message in seconds.
    public var durationSeconds: Double { Double(validSampleCount) / Double(Self.sampleRate) }

    /// The total bytes of audio packets, without container overhead.
    public var packetBytes: Int { packets.reduce(0) { $0 + $1.count } }
}
