/// A decoded recording at its source rate, downmixed to mono unless asked otherwise.
public struct DecodedAudio: Sendable {
    /// Samples, nominally within -1...1: mono, or interleaved when `isInterleaved`.
    public var samples: [Float]
    /// True when `samples` holds all `channelCount` channels interleaved.
    public var isInterleaved: Bool = false
    public var sampleRate: Int
    /// The channel count of the source, before the downmix.
    public var channelCount: Int
    /// A human-readable description of the container and encoding, from libsndfile,
    /// for example "WAV (Microsoft), Signed 16 bit PCM".
    public var format: String
    /// The container and the codec, named apart, when FFmpeg decoded the file ("M4A" and
    /// "AAC (Advanced Audio Coding)"); nil from libsndfile, whose `format` says both.
    public var container: String?
    public var codec: String?

    public init(samples: [Float], sampleRate: Int, channelCount: Int, format: String) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
    }

    public var frameCount: Int { isInterleaved ? samples.count / channelCount : samples.count }

    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }
}

/// What a recording is, before and after decoding it: its format and its length.
public struct SourceFormat: Sendable, Equatable {
    /// A human-readable description of the container and encoding, from libsndfile.
    public var format: String
    public var sampleRate: Int
    /// The channel count of the source, before any downmix.
    public var channelCount: Int
    /// True when the decoded values are all channels interleaved rather than a mono downmix.
    public var isInterleaved: Bool
    /// The container and the codec, named apart, when FFmpeg decoded the file; nil otherwise.
    public var container: String?
    public var codec: String?
    /// Frames: as the header declares them before decoding (an estimate for MP3), as decoded
    /// after.
    public var frameCount: Int

    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }

    /// How many values the decode hands over, by the header's count.
    public var expectedValueCount: Int { frameCount * (isInterleaved ? channelCount : 1) }
}
