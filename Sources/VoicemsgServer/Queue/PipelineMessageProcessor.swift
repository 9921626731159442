import AudioPipeline
import Foundation
import RunTracking

/// The production processor: the audio pipeline, then Ogg Opus, and the same message as AAC in
/// MP4 for browsers that play no Opus.
public struct PipelineMessageProcessor: MessageProcessor {
    let configuration: PipelineConfiguration

    public init(configuration: PipelineConfiguration = Self.uploadConfiguration) {
        self.configuration = configuration
    }

    /// The pipeline's defaults, with every upload decoded by FFmpeg in the isolated child:
    /// uploads are untrusted, and a crafted one must not take a worker down. Noise suppression
    /// is on, as in `encode`: noisy uploads are cleaned when DeepFilterNet is installed, and
    /// each report says what the Denoiser did. Every message gets its AAC version too, made
    /// here from the same levelled signal as its Opus (docs/operations.md, "The AAC version").
    public static var uploadConfiguration: PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.isolation.policy = .always
        configuration.denoiser.mode = .automatic
        configuration.aac = AACEncoder.Configuration()
        return configuration
    }

    public func process(_ job: ProcessingInput) throws -> JobResult {
        let metadata = MessageMetadata(
            marker: job.marker, sender: job.sender, runID: job.runID, messageID: job.messageID,
            title: job.runTitle)
        // The message id names the upload in error text: it is safe to show and never a path.
        let message = try MessagePipeline(configuration: configuration)
            .process(.data(job.original, name: job.messageID), metadata: metadata)
        let bytes = try OggOpusWriter.write(message.stream)
        // An AAC that could not be made does not fail the message: its Opus is whole, and the
        // AAC is made again the first time a client asks for it.
        switch message.aac {
        case .success(let file):
            return JobResult(audio: Data(bytes), durationSeconds: message.durationSeconds, aac: Data(file.bytes))
        case .failure(let error):
            return JobResult(audio: Data(bytes), durationSeconds: message.durationSeconds, aacFailure: error.message)
        case nil:
            return JobResult(audio: Data(bytes), durationSeconds: message.durationSeconds)
        }
    }
}
