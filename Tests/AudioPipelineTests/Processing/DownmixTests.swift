import Testing
@testable import AudioPipeline

/// One downmix serves the file decoder and the Opus decoder: the mean of each frame.
@Suite struct DownmixTests {
    @Test(arguments: [1, 2, 3, 8])
    func foldsEachFrameToItsMean(channels: Int) {
        let frames = 1000
        let interleaved = (0..<(frames * channels)).map { Float(($0 * 37) % 101) / 101 - 0.5 }
        var downmix = Downmix(channelCount: channels)
        let mono = interleaved.withUnsafeBufferPointer { all in downmix(all) { Array($0) } }
        #expect(mono.count == frames)
        var worst: Float = 0
        for frame in 0..<frames {
            let values = interleaved[(frame * channels)..<((frame + 1) * channels)]
            let mean: Float = values.reduce(0, +) / Float(channels)
            worst = max(worst, abs(mono[frame] - mean))
        }
        #expect(worst <= 1e-6)
    }

    @Test func stereoOpusDecodesToTheMeanOfItsChannels() throws {
        try ToolBox.withTemporaryFolder { tools in
            try tools.run("sox", ["-n", "-r", "48000", "-b", "16", "-c", "2", "in.wav", "synth", "1", "sine", "440", "sine", "1000", "vol", "0.5"])
            try tools.run("opusenc", ["--quiet", "in.wav", "in.opus"])
            let stream = try OggOpusReader.read(tools.read("in.opus"))
            #expect(stream.channelCount == 2)
            let interleaved = try OpusStreamDecoder.decodeInterleaved(stream)
            let mono = try OpusStreamDecoder.decode(stream)
            #expect(mono.count * 2 == interleaved.count)
            #expect((0..<mono.count).allSatisfy { mono[$0] == (interleaved[2 * $0] + interleaved[2 * $0 + 1]) / 2 })
        }
    }
}
