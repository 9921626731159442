/// Every stage's measurements for one processed message; `voicemsg encode --json` prints it.
public struct MessageReport: Sendable, Codable, Equatable {
    public struct Input: Sendable, Codable, Equatable {
        public var name: String
        public var format: String
        public var sampleRate: Int
        public var channels: Int
        public var durationSeconds: Double
    }

    public struct Speech: Sendable, Codable, Equatable {
        /// Where speech was detected, in seconds from the start of the input.
        public var startSeconds: Double
        public var endSeconds: Double
        /// The span kept, with padding, in seconds from the start of the input.
        public var keptStartSeconds: Double
        public var keptEndSeconds: Double
    }

    /// The encoded message. The pipeline returns a stream, not a file: the container, the
    /// file's size and its bitrate are filled in when the message is written in one
    /// (`ProcessedMessage.file(in:)`).
    public struct Output: Sendable, Codable, Equatable {
        public var container: OpusContainer?
        /// The file's size, container included.
        public var bytes: Int?
        /// Average bitrate of the whole file, container included, in bits per second.
        public var bitrate: Double?
        public var durationSeconds: Double
        public var sampleCount: Int64
        public var preSkip: Int
        public var packets: Int
    }

    public var input: Input
    /// What the Denoiser found and did.
    public var denoise: Denoiser.Measurement = .init(decision: .off)
    public var speech: Speech
    /// The trimmed audio before any gain.
    public var loudnessBefore: LoudnessMeasurement
    /// The decoded output, as a player renders it.
    public var loudnessAfter: LoudnessMeasurement
    public var normalization: Normalizer.Measurement
    public var output: Output
    /// Seconds spent in each stage, by stage name.
    public var stageSeconds: [String: Double]
}

extension MessageReport.Speech {
    /// The spans `measurement` found.
    public init(_ measurement: SpeechTrimmer.Measurement) {
        self.init(
            startSeconds: measurement.speechStartSeconds, endSeconds: measurement.speechEndSeconds,
            keptStartSeconds: measurement.keptStartSeconds, keptEndSeconds: measurement.keptEndSeconds)
    }
}
