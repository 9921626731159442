import ArgumentParser
import AudioPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `voicemsg convert IN OUT`: rewraps an Opus message from Ogg or CAF into Ogg, CAF or WebM
/// without re-encoding. The output container follows OUT's extension (.caf, .webm, or
/// .opus/.ogg/.oga).
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrap an Opus message between Ogg (.opus) and CAF (.caf), or into WebM (.webm), without re-encoding.",
        discussion: """
            The packets, pre-skip, exact length and tags are kept. The output is written to a \
            temporary file and renamed, so a failed conversion never leaves a partial file.
            """
    )

    @Argument(help: "The input: Ogg Opus or Opus in CAF.")
    var input: String

    @Argument(help: "The output; its extension (.caf, .webm, .opus, .ogg, .oga) chooses the container.")
    var output: String

    @Flag(help: "Print what was converted as JSON on stdout.")
    var json = false

    func validate() throws {
        guard OpusContainer(pathExtension: URL(fileURLWithPath: output).pathExtension) != nil else {
            throw ValidationError("\(output): unknown output extension; use .caf, .webm, .opus, .ogg or .oga")
        }
    }

    /// What `convert --json` prints: both files, and the stream they share. Built once, never
    /// changed.
    struct Summary: Codable {
        let input, output: String
        let from, to: OpusContainer
        let channelCount: Int
        /// Samples at 48 kHz the decoder drops at the start, as both containers say.
        let preSkip: Int
        /// The message's exact length in samples at 48 kHz.
        let validSampleCount: Int64
        let durationSeconds: Double
        let packetCount: Int
        /// The output file's size.
        let bytes: Int
        let tags: [String: String]
    }

    func run() throws {
        do {
            let summary = try convert()
            if json { try JSONOutput.print([summary]) }
        } catch {
            let failure = (error as? AudioPipelineError) ?? AudioPipelineError(.io, "\(error)", source: input)
            printError(failure.description)
            throw ExitStatus.forFailures([failure])
        }
    }

    private func convert() throws -> Summary {
        let target = OpusContainer(pathExtension: URL(fileURLWithPath: output).pathExtension)!
        guard let bytes = FileManager.default.contents(atPath: input) else {
            throw AudioPipelineError(.io, "cannot be read (missing, a folder, or no permission)", source: input)
        }
        let stream: OpusStream, source: OpusContainer
        do {
            (stream, source) = try OpusContainer.read(bytes)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: input)
        }
        let converted: [UInt8]
        do {
            converted = try target.write(stream)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: output)
        }
        try AtomicFile.write(converted, to: output)
        return Summary(
            input: input, output: output, from: source, to: target, channelCount: stream.channelCount,
            preSkip: stream.preSkip, validSampleCount: stream.validSampleCount,
            durationSeconds: stream.durationSeconds, packetCount: stream.packets.count,
            bytes: converted.count, tags: stream.tags.dictionary)
    }
}
