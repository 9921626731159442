import Foundation
import Testing
import TestSupport
@testable import AudioPipeline

/// Replays the saved fuzz corpora of the container readers and the WAV header check
/// (Fuzz/Corpus; see scripts/fuzz.sh) without the sanitizer build: each input gives a value or
/// an AudioPipelineError, never a trap; the seeds, real files, read.
@Suite struct ContainerFuzzCorpusReplayTests {
    @Test(arguments: ["ogg", "caf"]) func containerCorpus(_ target: String) throws {
        let inputs = try FuzzCorpus.inputs(target)
        try #require(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do {
                let stream = try target == "ogg" ? OggOpusReader.read(bytes) : CAFOpusReader.read(bytes)
                #expect(!stream.packets.isEmpty, "\(name)")
            } catch let error as AudioPipelineError {
                #expect(!name.hasPrefix("seed-"), "seed \(name) is a real file: \(error)")
                #expect(!error.description.isEmpty, "\(name)")
            }
        }
    }

    @Test func wavCorpus() throws {
        let inputs = try FuzzCorpus.inputs("wav")
        try #require(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let header = WAVHeader(bytes)
            if name.hasPrefix("seed-") {
                let header = try #require(header, "seed \(name) has a fmt chunk")
                #expect(header.problem == nil, "\(name)")
            } else {
                _ = header?.problem
            }
        }
    }

    /// The decoder child's corpus, through the child itself, as every upload goes: each input
    /// encodes or ends in one line of error, and the child never crashes, is killed, or makes a
    /// system call its sandbox forbids on it.
    @Test func decodeCorpus() throws {
        let inputs = try FuzzCorpus.inputs("decode")
        try #require(!inputs.isEmpty)
        var configuration = PipelineConfiguration()
        configuration.isolation.policy = .always
        let pipeline = MessagePipeline(configuration: configuration)
        for (name, bytes) in inputs {
            do {
                let message = try pipeline.process(.data(Data(bytes), name: name), metadata: MessageMetadata(marker: .absolute(meters: 1000)))
                #expect(message.stream.validSampleCount > 0, "\(name)")
            } catch let error as AudioPipelineError {
                let text = error.description
                print("decode corpus \(name): \(text)")
                #expect(!text.contains("\n") && !text.isEmpty, "\(name): \(text)")
                #expect(!text.contains("crashed") && !text.contains("killed") && !text.contains("sandbox"), "\(name): \(text)")
            }
        }
    }
}
