/// The result of processing one recording.
public struct ProcessedMessage: Sendable {
    /// The encoded message, ready to wrap in Ogg or CAF.
    public var stream: OpusStream
    public var report: MessageReport

    /// The exact duration of the message in seconds.
    public var durationSeconds: Double { stream.durationSeconds }
}
