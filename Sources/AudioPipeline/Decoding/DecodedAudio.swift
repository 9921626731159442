/// A decoded recording at its source rate, downmixed to mono unless asked otherwise.
public struct DecodedAudio: Sendable {
    /// Samples, nominally within -1...1: mono, or interleaved when `isInterleaved`.
    public var samples: [Float]
    /// True when `samples` holds all `channelCount` channels interleaved.
    public var isInterleaved: Bool = false
    /// The sample rate of `samples`, in Hz: the source's own.
    public var sampleRate: Int
    /// The channel count of the source, before the downmix.
    public var channelCount: Int
    /// A human-readable description of the container and encoding, from libsndfile,
    /// for example "WAV (Microsoft), Signed 16 bit PCM".
    public var format: String
    /// The container and the codec, named apart, when FFmpeg decoded the file ("M4A" and
    /// "AAC (Advanced Audio Coding)"); nil from libsndfile, whose `format` says both.
    public var container: String?
    /// See `container`.
    public var codec: String?

    /// Mono decoded audio; set `isInterleaved` afterwards when `samples` holds every channel.
    public init(samples: [Float], sampleRate: Int, channelCount: Int, format: String) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
    }

    /// Samples per channel.
    public var frameCount: Int { isInterleaved ? samples.count / channelCount : samples.count }

    /// The length in seconds.
    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }
}

/// What a recording is, before and after decoding it: its format and its length.
public struct SourceFormat: Sendable, Equatable {
    /// A human-readable description of the container and encoding, from libsndfile.
    public var format: String
    /// The source's sample rate, in Hz.
    public var sampleRate: Int
    /// The channel count of the source, before any downmix.
    public var channelCount: Int
    /// True when the decoded values are all channels interleaved rather than a mono downmix.
    public var isInterleaved: Bool
    /// The container and the codec, named apart, when FFmpeg decoded the file; nil otherwise.
    public var container: String?
    /// See `container`.
    public var codec: String?
    /// Frames: as the header declares them before decoding (an estimate for MP3), as decoded
    /// after.
    public var frameCount: Int

    /// The length in seconds, by `frameCount`.
    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }

    /// How many values the decode hands over, by the header's count.
    public var expectedValueCount: Int { frameCount * (isInterleaved ? channelCount : 1) }
}
