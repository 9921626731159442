import AudioPipeline
import ArgumentParser

/// The container an encoded message is written in.
enum ContainerFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case ogg
    /// Opus in CAF, for AVAudioPlayer on iOS (issue 5).
    case caf

    var fileExtension: String { self == .ogg ? "opus" : "caf" }

    func bytes(for stream: OpusStream) throws -> [UInt8] {
        switch self {
        case .ogg: return try OggOpusWriter.write(stream)
        case .caf: return try CAFOpusWriter.write(stream)
        }
    }
}
