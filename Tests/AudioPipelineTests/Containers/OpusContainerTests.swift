import Testing
@testable import AudioPipeline

@Suite struct OpusContainerTests {
    @Test(arguments: [("x.caf", OpusContainer.caf), ("x.opus", .ogg), ("X.OGG", .ogg), ("x.oga", .ogg)])
    func choosesTheContainerByExtension(name: String, container: OpusContainer) {
        #expect(OpusContainer(pathExtension: String(name.split(separator: ".").last!)) == container)
    }

    @Test func refusesUnknownExtensions() {
        #expect(OpusContainer(pathExtension: "wav") == nil)
        #expect(OpusContainer(pathExtension: "") == nil)
    }

    @Test(arguments: OpusContainer.allCases)
    func rewrapsThroughEitherContainer(_ container: OpusContainer) throws {
        var stream = CAFOpusReaderTests.stream
        stream.inputSampleRate = 48_000
        let bytes = try container.write(stream)
        let (read, detected) = try OpusContainer.read(bytes)
        #expect(detected == container)
        #expect(read == stream)
        // And across: Ogg -> CAF -> Ogg keeps every packet.
        let other = OpusContainer.allCases.first { $0 != container }!
        #expect(try OpusContainer.read(other.write(read)).0 == stream)
    }

    @Test func refusesOtherFormats() {
        #expect(throws: AudioPipelineError.self) { try OpusContainer.read(Array("RIFF\0\0\0\0WAVE".utf8)) }
        #expect(throws: AudioPipelineError.self) { try OpusContainer.read([UInt8]()) }
    }
}
