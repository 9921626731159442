/// Every stage's measurements for one processed message; `voicemsg encode --json` prints it.
public struct MessageReport: Sendable, Codable, Equatable {
    /// The recording as it came.
    public struct Input: Sendable, Codable, Equatable {
        /// The file or upload's name.
        public var name: String
        /// Its container and encoding, in words.
        public var format: String
        /// Its sample rate, in Hz.
        public var sampleRate: Int
        /// Its channel count.
        public var channels: Int
        /// Its length, in seconds.
        public var durationSeconds: Double
    }

    /// Where the speech was, and what was kept.
    public struct Speech: Sendable, Codable, Equatable {
        /// Where speech was detected, in seconds from the start of the input.
        public var startSeconds: Double
        /// Where detected speech ended, in seconds from the start of the input.
        public var endSeconds: Double
        /// The span kept, with padding, in seconds from the start of the input.
        public var keptStartSeconds: Double
        /// Where the kept span ends, in seconds from the start of the input.
        public var keptEndSeconds: Double
    }

    /// The encoded message. The pipeline returns a stream, not a file: the container, the
    /// file's size and its bitrate are filled in when the message is written in one
    /// (`ProcessedMessage.file(in:)`).
    public struct Output: Sendable, Codable, Equatable {
        /// The container; nil until the message is written in one.
        public var container: OpusContainer?
        /// The file's size, container included.
        public var bytes: Int?
        /// Average bitrate of the whole file, container included, in bits per second.
        public var bitrate: Double?
        /// The message's exact length, in seconds.
        public var durationSeconds: Double
        /// Its length in 48 kHz samples.
        public var sampleCount: Int64
        /// The samples a decoder discards at the start (the encoder's lookahead).
        public var preSkip: Int
        /// How many Opus packets it holds.
        public var packets: Int
    }

    /// The recording as it came.
    public var input: Input
    /// What the Denoiser found and did.
    public var denoise: Denoiser.Measurement = .init(decision: .off)
    /// Where the speech was, and what was kept.
    public var speech: Speech
    /// The trimmed audio before any gain.
    public var loudnessBefore: LoudnessMeasurement
    /// The decoded output, as a player renders it.
    public var loudnessAfter: LoudnessMeasurement
    /// The gain, the limiter and the encode passes.
    public var normalization: Normalizer.Measurement
    /// The encoded message.
    public var output: Output
    /// Seconds spent in each stage, by stage name.
    public var stageSeconds: [String: Double]
    /// The AAC version, when one was made (`PipelineConfiguration.aac`).
    public var aac: AACReport? = nil
}

extension MessageReport.Speech {
    /// The spans `measurement` found.
    public init(_ measurement: SpeechTrimmer.Measurement) {
        self.init(
            startSeconds: measurement.speechStartSeconds, endSeconds: measurement.speechEndSeconds,
            keptStartSeconds: measurement.keptStartSeconds, keptEndSeconds: measurement.keptEndSeconds)
    }
}
