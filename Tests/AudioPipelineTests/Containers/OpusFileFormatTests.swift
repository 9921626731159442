import Testing
@testable import AudioPipeline

@Suite struct OpusFileFormatTests {
    @Test(arguments: [("x.caf", OpusFileFormat.caf), ("x.opus", .ogg), ("X.OGG", .ogg), ("x.oga", .ogg)])
    func choosesTheContainerByExtension(name: String, container: OpusFileFormat) {
        #expect(OpusFileFormat(pathExtension: String(name.split(separator: ".").last!)) == container)
    }

    @Test func refusesUnknownExtensions() {
        #expect(OpusFileFormat(pathExtension: "wav") == nil)
        #expect(OpusFileFormat(pathExtension: "") == nil)
    }

    @Test(arguments: OpusFileFormat.allCases)
    func rewrapsThroughEitherContainer(_ container: OpusFileFormat) throws {
        var stream = CAFOpusReaderTests.stream
        stream.inputSampleRate = 48_000
        let bytes = try container.write(stream)
        let (read, detected) = try OpusFileFormat.read(bytes)
        #expect(detected == container)
        #expect(read == stream)
        // And across: Ogg -> CAF -> Ogg keeps every packet.
        let other = OpusFileFormat.allCases.first { $0 != container }!
        #expect(try OpusFileFormat.read(other.write(read)).0 == stream)
    }

    @Test func refusesOtherFormats() {
        #expect(throws: AudioPipelineError.self) { try OpusFileFormat.read(Array("RIFF\0\0\0\0WAVE".utf8)) }
        #expect(throws: AudioPipelineError.self) { try OpusFileFormat.read([UInt8]()) }
    }
}
