import Foundation
import Testing
@testable import AudioPipeline

/// Files made by opusenc are read by `OggOpusReader`, rewritten by `OggOpusWriter`, and the
/// result is judged by opusinfo, opusdec and ffprobe.
@Suite struct OggOpusInteropTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var channels: Int
        var seconds: Double
        var opusencArguments: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "mono 20 ms", channels: 1, seconds: 1.234, opusencArguments: []),
        Case(name: "stereo 60 ms CELT (multi-frame packets)", channels: 2, seconds: 0.5,
             opusencArguments: ["--framesize", "60", "--bitrate", "160"]),
        Case(name: "mono 2.5 ms (pages over 255 packets)", channels: 1, seconds: 3.3,
             opusencArguments: ["--framesize", "2.5"]),
        Case(name: "mono 40 ms SILK", channels: 1, seconds: 2.71,
             opusencArguments: ["--framesize", "40", "--bitrate", "8", "--speech"]),
        Case(name: "mono 10 ms at 20 kb/s", channels: 1, seconds: 1.0,
             opusencArguments: ["--framesize", "10", "--bitrate", "20"]),
        Case(name: "stereo 60 ms at 256 kb/s (packets over 255 bytes)", channels: 2, seconds: 2.0,
             opusencArguments: ["--framesize", "60", "--bitrate", "256"]),
        Case(name: "10 ms of audio (one end-trimmed page)", channels: 1, seconds: 0.01, opusencArguments: []),
        Case(name: "11 s (many pages)", channels: 1, seconds: 11.0, opusencArguments: ["--bitrate", "24"]),
    ]

    static let tags = [("DISTANCE_MARKER", "finish-1000m"), ("SENDER", "Grandma Ünal"), ("TITLE", "go = go!")]

    /// Makes `in.opus` from a sine sweep with opusenc, tagged with `tags`.
    func makeOpusencFile(_ testCase: Case, in tools: ToolBox) throws {
        let synth = testCase.channels == 1 ? ["sine", "300-3000"] : ["sine", "440", "sine", "660"]
        try tools.run("sox", ["-n", "-r", "48000", "-b", "16", "-c", "\(testCase.channels)", "in.wav",
                              "synth", "\(testCase.seconds)"] + synth + ["vol", "0.5"])
        let comments = Self.tags.flatMap { ["--comment", "\($0.0)=\($0.1)"] }
        try tools.run("opusenc", ["--quiet"] + testCase.opusencArguments + comments + ["in.wav", "in.opus"])
    }

    @Test(arguments: cases)
    func readsWhatOpusencWrites(_ testCase: Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            try makeOpusencFile(testCase, in: tools)
            let stream = try OggOpusReader.read(tools.read("in.opus"))

            let info = try tools.run("opusinfo", ["in.opus"]).standardOutput
            #expect(info.contains("Pre-skip: \(stream.preSkip)\n"))
            #expect(info.contains("Channels: \(stream.channelCount)\n"))
            #expect(stream.channelCount == testCase.channels)
            #expect(info.contains("Encoded with \(stream.tags.vendor)\n"))
            for (key, value) in Self.tags {
                #expect(stream.tags[key] == value)
                #expect(info.contains("\t\(key)=\(value)\n"))
            }
            #expect(stream.tags["ENCODER"] != nil)

            // opusdec applies the pre-skip and the end trimming: its length is the truth.
            let decoded = try tools.opusdec("in.opus")
            #expect(Int64(decoded.frameCount) == stream.validSampleCount)
            #expect(stream.validSampleCount == Int64((testCase.seconds * 48_000).rounded()))
        }
    }

    @Test(arguments: cases)
    func rewrittenFilesSatisfyTheReferenceTools(_ testCase: Case) throws {
        try ToolBox.withTemporaryFolder { tools in
            try makeOpusencFile(testCase, in: tools)
            let original = try OggOpusReader.read(tools.read("in.opus"))
            let rewritten = try OggOpusWriter(serialNumber: 0x5EED).write(original)
            try tools.write(rewritten, to: "out.opus")

            // Our own reader gets back exactly what went in.
            #expect(try OggOpusReader.read(rewritten) == original)

            let info = try tools.run("opusinfo", ["out.opus"]).combined
            #expect(!info.lowercased().contains("warning"), "opusinfo: \(info)")
            #expect(!info.lowercased().contains("error"), "opusinfo: \(info)")
            #expect(info.contains("Pre-skip: \(original.preSkip)\n"))
            // Pages hold about a second at most (one packet more when a 4 KB page is not full).
            let pageLine = try #require(info.split(separator: "\n").first { $0.contains("Page duration:") })
            let longestPage = try #require(Double(pageLine.split(separator: ":")[1]
                .trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." }))
            #expect(longestPage <= 1_060)

            // ffprobe reports Ogg comments as stream tags (its format tags stay empty for Ogg).
            let probe = try tools.run("ffprobe", ["-v", "error", "-show_entries", "stream_tags:format_tags",
                                                  "-of", "default=noprint_wrappers=1", "out.opus"]).standardOutput
            for (key, value) in Self.tags {
                #expect(probe.contains("\(key)=\(value)"), "ffprobe: \(probe)")
            }

            // Same packets, same decoder: identical samples, identical length.
            let before = try tools.opusdec("in.opus")
            let after = try tools.opusdec("out.opus")
            #expect(after.frameCount == before.frameCount)
            #expect(Int64(after.frameCount) == original.validSampleCount)
            #expect(after.data == before.data)

            // ffmpeg, a second decoder, agrees on the exact length.
            let ffmpegSamples = try CAFOpusInteropTests.ffmpegDecode("out.opus", in: tools)
            #expect(Int64(ffmpegSamples.count) == original.validSampleCount * Int64(testCase.channels))
        }
    }
}
