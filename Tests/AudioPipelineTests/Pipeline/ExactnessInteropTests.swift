import AudioPipeline
import Foundation
import Testing
import RunTracking
import TestSupport

/// Acceptance, exactness and interop: the file decodes to exactly the trimmed length in opusdec
/// and ffmpeg, opusinfo finds nothing to complain about, and ffprobe sees the marker and sender.
@Suite struct ExactnessInteropTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var container: SpeechRecordings.Container
        var sampleRate: Int
        var channels: Int
        var seconds: Double
        var loudness: Double
        var marker: String
        var sender: String

        var name: String { "exact-\(container.rawValue)-\(sampleRate)-\(channels)ch-\(Int(seconds))s" }
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(container: .wav, sampleRate: 16_000, channels: 1, seconds: 5, loudness: -24, marker: "5km", sender: "Mum"),
        Case(container: .flac, sampleRate: 44_100, channels: 2, seconds: 1, loudness: -30, marker: "finish - 1 km", sender: "Grandma Ünal"),
        Case(container: .mp3, sampleRate: 22_050, channels: 1, seconds: 5, loudness: -16, marker: "halfway", sender: "Coach = Pat"),
        Case(container: .ogg, sampleRate: 8_000, channels: 1, seconds: 1, loudness: -40, marker: "3.1mi", sender: "Léa & Tom"),
        Case(container: .wav, sampleRate: 96_000, channels: 2, seconds: 5, loudness: -8, marker: "2500m", sender: "the club"),
    ]

    @Test(arguments: cases)
    func decodersAgreeOnLengthAndTags(_ testCase: Case) throws {
        let input = try SpeechRecordings.make(
            seconds: testCase.seconds, loudness: testCase.loudness, sampleRate: testCase.sampleRate,
            channels: testCase.channels, container: testCase.container, name: testCase.name)
        let marker = try DistanceMarker(parsing: testCase.marker)
        let message = try MessagePipeline().process(
            .file(path: input.path),
            metadata: MessageMetadata(marker: marker, sender: testCase.sender, runID: "run-7", messageID: "m-1", title: "Go"))
        defer { try? FileManager.default.removeItem(atPath: input.path) }
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let opus = folder.appendingPathComponent("message.opus").path
        try Data(OggOpusWriter.write(message.stream)).write(to: URL(fileURLWithPath: opus))

        // The trimmed length, three ways from the pipeline's side.
        let expected = message.stream.validSampleCount
        let speech = message.report.speech
        #expect(Int64(((speech.keptEndSeconds - speech.keptStartSeconds) * 48_000).rounded()) == expected)
        #expect(message.report.output.sampleCount == expected)
        #expect(Int64(try OpusStreamDecoder.decode(message.stream).count) == expected)

        // opusdec applies pre-skip and end trimming per RFC 7845; without --rate it would
        // resample to the input rate in the header.
        let wav = folder.appendingPathComponent("opusdec.wav").path
        try Tool.run("opusdec", ["--quiet", "--force-wav", "--rate", "48000", opus, wav])
        let opusdecFrames = try Self.wavFrameCount(Data(contentsOf: URL(fileURLWithPath: wav)))
        // ffmpeg, as 16-bit mono samples on stdout.
        let raw = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", opus, "-ac", "1", "-f", "s16le", "-"])
        let ffmpegFrames = Int64(raw.standardOutput.count / 2)
        print("\(testCase.name): trimmed \(expected) samples, opusdec \(opusdecFrames), ffmpeg \(ffmpegFrames)")
        #expect(opusdecFrames == expected)
        #expect(ffmpegFrames == expected)

        let info = try Tool.run("opusinfo", [opus])
        let infoText = info.text + info.standardError
        #expect(!infoText.localizedCaseInsensitiveContains("warning"), "\(infoText)")
        #expect(!infoText.localizedCaseInsensitiveContains("error"), "\(infoText)")

        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", opus])
        let tags = try Self.probeTags(probe.standardOutput)
        #expect(tags["DISTANCE_MARKER"] == marker.canonical, "\(tags)")
        #expect(tags["SENDER"] == testCase.sender, "\(tags)")
        #expect(tags["ARTIST"] == testCase.sender, "\(tags)")
        #expect(tags["RUN_ID"] == "run-7" && tags["MESSAGE_ID"] == "m-1" && tags["TITLE"] == "Go", "\(tags)")
        #expect(tags["R128_TRACK_GAIN"].flatMap(Int.init) != nil, "\(tags)")
    }

    /// The frame count of a 16-bit mono or multichannel WAV, from its chunks. opusdec cannot
    /// seek back to fix the sizes when writing to a pipe, so a size of 0 or 0xFFFFFFFF means
    /// "the rest of the file".
    static func wavFrameCount(_ data: Data) throws -> Int64 {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        try #require(bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8))
        var offset = 12
        var blockAlign = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " { blockAlign = u16(offset + 8 + 12) }
            if id == "data" {
                try #require(blockAlign > 0)
                let available = bytes.count - offset - 8
                let length = (size == 0 || size == 0xFFFF_FFFF) ? available : min(size, available)
                return Int64(length / blockAlign)
            }
            offset += 8 + size + (size & 1)
        }
        throw TestFailure("no data chunk in the WAV file")
    }

    /// ffprobe's format and stream tags, merged, with upper-case keys.
    static func probeTags(_ json: Data) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        var tags: [String: String] = [:]
        var dictionaries: [[String: Any]] = []
        if let format = object["format"] as? [String: Any] { dictionaries.append(format) }
        dictionaries += (object["streams"] as? [[String: Any]]) ?? []
        for dictionary in dictionaries {
            for (key, value) in (dictionary["tags"] as? [String: String]) ?? [:] { tags[key.uppercased()] = value }
        }
        return tags
    }
}
