import ArgumentParser
import AudioPipeline
import Foundation

/// `voicemsg convert IN OUT`: rewraps an Opus message between Ogg and CAF without
/// re-encoding. The output container follows OUT's extension (.caf, or .opus/.ogg/.oga).
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrap an Opus message between Ogg (.opus) and CAF (.caf) without re-encoding.",
        discussion: """
            The packets, pre-skip, exact length and tags are kept. The output is written to a \
            temporary file and renamed, so a failed conversion never leaves a partial file.
            """
    )

    @Argument(help: "The input: Ogg Opus or Opus in CAF.")
    var input: String

    @Argument(help: "The output; its extension (.caf, .opus, .ogg, .oga) chooses the container.")
    var output: String

    @Flag(help: "Print what was converted as JSON on stdout.")
    var json = false

    func validate() throws {
        guard OpusFileFormat(pathExtension: URL(fileURLWithPath: output).pathExtension) != nil else {
            throw ValidationError("\(output): unknown output extension; use .caf, .opus, .ogg or .oga")
        }
    }

    struct Summary: Codable {
        var input: String
        var output: String
        var from: OpusFileFormat
        var to: OpusFileFormat
        var channelCount: Int
        var preSkip: Int
        var validSampleCount: Int64
        var durationSeconds: Double
        var packetCount: Int
        var bytes: Int
        var tags: [String: String]
    }

    func run() throws {
        let target = OpusFileFormat(pathExtension: URL(fileURLWithPath: output).pathExtension)!
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: input))
        } catch {
            throw AudioPipelineError(.io, "cannot read the file (\(error.localizedDescription))", source: input)
        }
        let stream: OpusStream, source: OpusFileFormat
        let converted: [UInt8]
        do {
            (stream, source) = try OpusFileFormat.read(bytes)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: input)
        }
        do {
            converted = try target.write(stream)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: output)
        }
        do {
            // .atomic writes a temporary file beside the output and renames it into place.
            try Data(converted).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw AudioPipelineError(.io, "cannot write the file (\(error.localizedDescription))", source: output)
        }

        if json {
            let summary = Summary(
                input: input, output: output, from: source, to: target, channelCount: stream.channelCount,
                preSkip: stream.preSkip, validSampleCount: stream.validSampleCount,
                durationSeconds: stream.durationSeconds, packetCount: stream.packets.count,
                bytes: converted.count, tags: stream.tags.dictionary)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        }
    }
}
