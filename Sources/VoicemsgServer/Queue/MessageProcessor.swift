import AudioPipeline
import RunTracking
import Foundation

/// Turns one uploaded recording into an Ogg Opus file. The worker calls it on a thread of its
/// own, so it may block.
public protocol MessageProcessor: Sendable {
    func process(_ job: ProcessingInput) throws -> JobResult
}

/// What a processor needs to know about a job.
public struct ProcessingInput: Sendable {
    public var messageID: String
    public var runID: String
    public var runTitle: String
    /// The marker the upload parsed, read back from the store as it was stored.
    public var marker: DistanceMarker
    public var sender: String?
    public var original: Data
}

/// Which failures are the input's fault: they fail the message at once, with the pipeline's
/// own words, because trying again would give the same answer. The pipeline says so itself,
/// in `AudioPipelineError.isRetryable`.
enum FailureKind {
    case permanent
    case transient

    init(_ error: any Error) {
        // A stored marker that cannot be read back is the upload's fault; it never gets better.
        if error is RunTrackingError {
            self = .permanent
            return
        }
        guard let error = error as? AudioPipelineError else {
            self = .transient
            return
        }
        self = error.isRetryable ? .transient : .permanent
    }
}
