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

    public init(samples: [Float], sampleRate: Int, channelCount: Int, format: String) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
    }

    public var frameCount: Int { isInterleaved ? samples.count / channelCount : samples.count }

    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }
}
