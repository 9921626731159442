import AudioPipeline

/// Limits and policies of the HTTP API.
public struct APIConfiguration: Sendable {
    /// Largest upload accepted, in bytes; larger bodies get 413 and nothing is stored.
    /// Default 25 MB.
    public var maxUploadBytes: Int = 25 * 1024 * 1024
    /// Attempts each new message gets before it is failed for good. Default 5.
    public var maxAttempts: Int = 5
    /// Longest recording the pipeline accepts, in seconds; the recording page stops there and
    /// counts down to it. Default: the pipeline's own limit (10 minutes).
    public var maxRecordingSeconds: Double = InputLimits.default.maximumDurationSeconds

    public init() {}
}
