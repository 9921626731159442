import AudioPipeline
import ArgumentParser

/// The container an encoded message is written in.
enum ContainerFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case ogg

    var fileExtension: String { "opus" }

    func bytes(for stream: OpusStream) throws -> [UInt8] {
        switch self {
        case .ogg: return try OggOpusWriter.write(stream)
        }
    }
}
