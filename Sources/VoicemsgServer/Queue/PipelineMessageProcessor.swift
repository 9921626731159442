import AudioPipeline
import Foundation

/// The production processor: the audio pipeline, then Ogg Opus.
public struct PipelineMessageProcessor: MessageProcessor {
    public init() {}

    public func process(_ job: ProcessingInput) throws -> JobResult {
        // Wired to MessagePipeline and OggOpusWriter once they are on main.
        throw AudioPipelineError(.codecFailure, "the audio pipeline is not part of this build yet")
    }
}
