import Testing
@testable import AudioPipeline

@Suite struct OpusContainerTests {
    @Test(arguments: [("x.caf", OpusContainer.caf), ("x.opus", .ogg), ("X.OGG", .ogg), ("x.oga", .ogg), ("x.WebM", .webm)])
    func choosesTheContainerByExtension(name: String, container: OpusContainer) {
        #expect(OpusContainer(pathExtension: String(name.split(separator: ".").last!)) == container)
    }

    @Test func refusesUnknownExtensions() {
        #expect(OpusContainer(pathExtension: "wav") == nil)
        #expect(OpusContainer(pathExtension: "") == nil)
    }

    @Test(arguments: [OpusContainer.ogg, .caf])
    func rewrapsThroughEitherContainer(_ container: OpusContainer) throws {
        var stream = CAFOpusReaderTests.stream
        stream.inputSampleRate = 48_000
        let bytes = try container.write(stream)
        let (read, detected) = try OpusContainer.read(bytes)
        #expect(detected == container)
        #expect(read == stream)
        // And across: Ogg -> CAF -> Ogg keeps every packet.
        let other: OpusContainer = container == .ogg ? .caf : .ogg
        #expect(try OpusContainer.read(other.write(read)).0 == stream)
    }

    /// WebM is written for browsers, never read back as a message: a WebM file is a recording
    /// to encode, and the refusal says so.
    @Test func writesWebMButDoesNotReadItBack() throws {
        let bytes = try OpusContainer.webm.write(CAFOpusReaderTests.stream)
        #expect(bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]))
        #expect(OpusContainer(detecting: bytes) == nil)
        let error = try #require(throws: AudioPipelineError.self) { try OpusContainer.read(bytes) }
        #expect(error.message.contains("a WebM or Matroska file, which voicemsg reads as a recording to encode"), "\(error)")
        #expect(throws: AudioPipelineError.self) { try OpusContainer.webm.read(bytes) }
        #expect(OpusContainer.webm.mediaType == "audio/webm" && OpusContainer.webm.pathExtension == "webm")
    }

    @Test func refusesOtherFormats() {
        #expect(throws: AudioPipelineError.self) { try OpusContainer.read(Array("RIFF\0\0\0\0WAVE".utf8)) }
        #expect(throws: AudioPipelineError.self) { try OpusContainer.read([UInt8]()) }
    }
}

/// Files made by other tools are told apart by their bytes alone: Opus in Ogg or CAF is
/// recognised, and Ogg Vorbis or CAF holding PCM, which start with the same four bytes, are not.
@Suite struct OpusContainerDetectionTests {
    struct Made: Sendable, CustomTestStringConvertible {
        var name: String
        var tool: [String]
        var expected: OpusContainer?
        var testDescription: String { name }
    }

    static let files: [Made] = [
        Made(name: "x.opus", tool: ["opusenc", "--quiet", "in.wav", "x.opus"], expected: .ogg),
        Made(name: "x.caf", tool: ["ffmpeg", "-v", "error", "-i", "in.wav", "-c:a", "libopus", "x.caf"], expected: .caf),
        Made(name: "vorbis.ogg", tool: ["ffmpeg", "-v", "error", "-i", "in.wav", "-c:a", "libvorbis", "vorbis.ogg"], expected: nil),
        Made(name: "pcm.caf", tool: ["ffmpeg", "-v", "error", "-i", "in.wav", "-c:a", "pcm_s16le", "pcm.caf"], expected: nil),
        Made(name: "in.wav", tool: [], expected: nil),
    ]

    @Test(arguments: files)
    func recognisesOpusByItsBytes(_ file: Made) throws {
        try ToolBox.withTemporaryFolder { tools in
            try tools.run("sox", ["-n", "-r", "48000", "-b", "16", "-c", "1", "in.wav", "synth", "0.5", "sine", "440", "vol", "0.5"])
            if let tool = file.tool.first { try tools.run(tool, Array(file.tool.dropFirst())) }
            let bytes = try tools.read(file.name)
            #expect(OpusContainer(detecting: bytes) == file.expected)
            if let expected = file.expected {
                // Detected, it reads; and the head alone is enough to tell.
                #expect(try OpusContainer.read(bytes).1 == expected)
                #expect(OpusContainer(detecting: bytes.prefix(OpusContainer.headLength)) == expected)
            } else {
                let error = try #require(throws: AudioPipelineError.self) { try OpusContainer.read(bytes) }
                #expect(error.code == .invalidContainer)
                #expect(error.message.hasPrefix("neither Ogg Opus nor Opus in CAF ("), "\(error)")
            }
        }
    }

    @Test func aCutOffHeadIsNotOpus() throws {
        let bytes = try OpusContainer.ogg.write(CAFOpusReaderTests.stream)
        #expect(OpusContainer(detecting: bytes) == .ogg)
        #expect(OpusContainer(detecting: bytes.prefix(30)) == nil)
        #expect(OpusContainer(detecting: [UInt8]()) == nil)
    }
}
