/// The result of processing one recording.
public struct ProcessedMessage: Sendable {
    /// The encoded message, ready to wrap in Ogg or CAF.
    public var stream: OpusStream
    /// What every stage measured and did; the output's container and size are filled in by `file(in:)`.
    public var report: MessageReport
    /// The AAC version, when `PipelineConfiguration.aac` asked for one: the file, or why it
    /// could not be made (the Opus message is whole either way).
    public var aac: Result<AACFile, AudioPipelineError>?

    public init(stream: OpusStream, report: MessageReport, aac: Result<AACFile, AudioPipelineError>? = nil) {
        self.stream = stream
        self.report = report
        self.aac = aac
    }

    /// The exact duration of the message in seconds.
    public var durationSeconds: Double { stream.durationSeconds }

    /// The message as a file in `container`, and the report completed with what only the file
    /// knows: its container, its size in bytes and the bitrate they make.
    public func file(in container: OpusContainer) throws -> (bytes: [UInt8], report: MessageReport) {
        let bytes = try container.write(stream)
        var report = self.report
        report.output.container = container
        report.output.bytes = bytes.count
        report.output.bitrate = Double(bytes.count * 8) / max(durationSeconds, 1e-9)
        return (bytes, report)
    }
}
