/// Every setting of the pipeline, with the defaults docs/cli.md lists. Each stage keeps its own
/// configuration; this struct only gathers them. The pipeline works at Opus's rate,
/// `OpusStream.sampleRate`, which is not a setting.
public struct PipelineConfiguration: Sendable {
    /// What the decoder accepts.
    public var limits = InputLimits()
    /// Which inputs FFmpeg decodes in the isolated child, and its limits.
    public var isolation = DecoderIsolation()
    /// The high-pass filter.
    public var conditioner = Conditioner.Configuration()
    /// Noise suppression.
    public var denoiser = Denoiser.Configuration()
    /// Finding the speech and cutting the dead air around it.
    public var trimmer = SpeechTrimmer.Configuration()
    /// Loudness, true-peak ceiling and the limiter.
    public var normalizer = Normalizer.Configuration()
    /// Opus's bitrate, frame length and complexity.
    public var encoder = OpusEncoder.Configuration()
    /// An AAC version of each message beside its Opus, for browsers that play no Opus. Default:
    /// nil, none.
    public var aac: AACEncoder.Configuration?

    /// Every stage's defaults.
    public init() {}
}
