import Foundation

/// A processor that does no audio work: the "result" is the upload itself. It measures the
/// queue alone (the bench) and drives the crash tests, which are about jobs, not audio.
public struct NoopMessageProcessor: MessageProcessor {
    public init() {}

    public func process(_ job: ProcessingInput) throws -> JobResult {
        JobResult(audio: job.original, durationSeconds: 0)
    }
}
