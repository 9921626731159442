/// Every setting of the pipeline, with the defaults docs/cli.md lists. Each stage keeps its own
/// configuration; this struct only gathers them. The pipeline works at Opus's rate,
/// `OpusStream.sampleRate`, which is not a setting.
public struct PipelineConfiguration: Sendable {
    public var limits = InputLimits()
    /// Which inputs FFmpeg decodes in the isolated child, and its limits.
    public var isolation = DecoderIsolation()
    public var conditioner = Conditioner.Configuration()
    public var denoiser = Denoiser.Configuration()
    public var trimmer = SpeechTrimmer.Configuration()
    public var normalizer = Normalizer.Configuration()
    public var encoder = OpusEncoder.Configuration()

    public init() {}
}
