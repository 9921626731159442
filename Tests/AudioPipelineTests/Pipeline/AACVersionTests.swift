import Foundation
import RunTracking
import Testing
import TestSupport
@testable import AudioPipeline

/// The AAC version of a message, for browsers that play no Opus, judged by ffprobe and ffmpeg:
/// AAC-LC in an MP4 (M4A) at about 32 kb/s, mono; -16 LUFS ±0.5 with its true peak at or under
/// -1 dBTP by ffmpeg's ebur128 on the decoded file; the Opus message's length; the same tags.
@Suite struct AACVersionTests {
    static let samples: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("samples")
    }()

    /// Every bundled sample, the hot one (05, limited at -0.1 dBFS and +3.7 dBTP) and the very
    /// quiet one (04) among them, in every format a phone sends.
    static let names = [
        "01-first-km-dead-air.wav", "02-halfway-stereo-44k.flac", "03-five-km.mp3", "04-quiet-eight-km.wav",
        "05-hot-finish-1km.wav", "06-finish-outdoors.ogg", "07-halfway-iphone.m4a", "08-five-km-chrome.webm",
    ]

    static let target = -16.0
    static let tolerance = 0.5
    static let ceiling = -1.0

    static func metadata() throws -> MessageMetadata {
        MessageMetadata(marker: try DistanceMarker(parsing: "halfway"), sender: "Mum", runID: "run-1", messageID: "message-1", title: "Sunday run")
    }

    static func pipeline(_ aac: AACEncoder.Configuration = .init()) -> MessagePipeline {
        var configuration = PipelineConfiguration()
        configuration.aac = aac
        return MessagePipeline(configuration: configuration)
    }

    /// What ffprobe says of an M4A's one stream and its format.
    struct Probe {
        var stream: [String: Any]
        var format: [String: Any]
        var tags: [String: String] { format["tags"] as? [String: String] ?? [:] }
        var duration: Double? { (format["duration"] as? String).flatMap(Double.init) }
    }

    static func probe(_ path: String) throws -> Probe {
        let output = try Tool.run("ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        try #require(streams.count == 1, "\(streams)")
        return Probe(stream: streams[0], format: try #require(json["format"] as? [String: Any]))
    }

    /// How many samples ffmpeg decodes from `path`, at 48 kHz mono.
    static func decodedSampleCount(_ path: String) throws -> Int {
        let raw = path + ".f32"
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "f32le", "-ac", "1", "-ar", "48000", raw])
        return try FileManager.default.attributesOfItem(atPath: raw)[.size] as! Int / 4
    }

    /// Checks an M4A against the acceptance: the format, the level, the length, the tags.
    static func expectAcceptable(_ path: String, opusSamples: Int64, name: String, tags expected: [String: String]) throws {
        let probe = try probe(path)
        #expect(probe.stream["codec_name"] as? String == "aac", "\(name): \(probe.stream)")
        #expect(probe.stream["profile"] as? String == "LC", "\(name)")
        #expect(probe.stream["channels"] as? Int == 1, "\(name)")
        #expect(probe.stream["sample_rate"] as? String == "48000", "\(name)")
        #expect((probe.format["format_name"] as? String)?.contains("mp4") == true, "\(name): \(probe.format)")
        #expect(probe.tags["major_brand"]?.hasPrefix("M4A") == true, "\(name): \(probe.tags)")
        // The edit list gives the Opus message's length to the sample (ffprobe prints
        // microseconds); a decoder that ignores its end plays the last frame's padding too,
        // less than 1024 samples.
        let opusSeconds = Double(opusSamples) / 48_000
        // About 32 kb/s: FFmpeg's encoder holds an average, and a clip under a second spends
        // more on its first frames.
        let bitrate = try #require((probe.stream["bit_rate"] as? String).flatMap(Double.init))
        #expect((24_000...(opusSeconds < 1 ? 56_000 : 44_000)).contains(bitrate), "\(name): \(bitrate) b/s")

        let stated = try #require(probe.duration)
        #expect(abs(stated - opusSeconds) <= 2e-5, "\(name): ffprobe \(stated) s, Opus \(opusSeconds) s")
        let decoded = try decodedSampleCount(path)
        #expect(decoded >= Int(opusSamples) && abs(Double(decoded) - Double(opusSamples)) / 48_000 <= 0.030,
                "\(name): ffmpeg decodes \(decoded) samples, the Opus message has \(opusSamples)")

        let measured = try ReferenceTools.ebur128(path)
        print(String(format: "aac %@: %.2f LUFS, %.2f dBTP, %.0f b/s, %.2f ms longer decoded", name, measured.integrated,
                     measured.truePeak, bitrate, Double(decoded - Int(opusSamples)) / 48))
        #expect(abs(measured.integrated - target) <= tolerance, "\(name): \(measured.integrated) LUFS")
        #expect(measured.truePeak <= ceiling, "\(name): \(measured.truePeak) dBTP")

        for (key, value) in expected {
            #expect(probe.tags[key] == value, "\(name): \(key) is \(probe.tags[key] ?? "missing"), not \(value)")
        }
        let gain = try #require(probe.tags["R128_TRACK_GAIN"].flatMap(Int.init), "\(name): \(probe.tags)")
        // The gain brings the file to -23 LUFS from what it measures.
        #expect(abs(Double(gain) / 256 - (-23 - measured.integrated)) <= 0.15, "\(name): R128_TRACK_GAIN \(gain)")
    }

    @Test(arguments: names)
    func everySampleMeetsTheAcceptance(_ name: String) throws {
        let message = try Self.pipeline().process(.file(path: Self.samples.appendingPathComponent(name).path), metadata: Self.metadata())
        let file = try #require(try message.aac?.get())
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("message.m4a").path
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        try Self.expectAcceptable(path, opusSamples: message.stream.validSampleCount, name: name, tags: [
            "artist": "Mum", "title": "Sunday run", "DISTANCE_MARKER": "50%", "SENDER": "Mum",
            "RUN_ID": "run-1", "MESSAGE_ID": "message-1", "encoder": MessagePipeline.encoderName,
        ])
        // The report says what ffmpeg measured.
        #expect(file.report.sampleCount == message.stream.validSampleCount)
        #expect(file.report.bytes == file.bytes.count)
        #expect(!file.report.normalization.isTruePeakAboveCeiling)
        #expect(message.report.aac == file.report)
    }

    /// A one-word message (0.6 s before it is trimmed) and a one-second one.
    @Test(arguments: [0.6, 1.0])
    func shortMessagesMeetTheAcceptance(_ seconds: Double) throws {
        let input = try SpeechRecordings.make(
            seconds: seconds, loudness: -30, sampleRate: 44_100, channels: 1, container: .wav, name: "aac-short-\(seconds)")
        defer { try? FileManager.default.removeItem(atPath: input.path) }
        let message = try Self.pipeline().process(.file(path: input.path), metadata: Self.metadata())
        let file = try #require(try message.aac?.get())
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("short.m4a").path
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        try Self.expectAcceptable(path, opusSamples: message.stream.validSampleCount, name: "\(seconds) s", tags: ["DISTANCE_MARKER": "50%"])
    }

    /// A message made before its AAC was: the AAC is made from its stored Ogg Opus, and meets
    /// the same acceptance, with the Ogg file's tags.
    @Test func aMessageMadeEarlierGetsItsAACFromItsOpus() throws {
        let message = try MessagePipeline().process(
            .file(path: Self.samples.appendingPathComponent("05-hot-finish-1km.wav").path), metadata: Self.metadata())
        let ogg = try OggOpusWriter.write(message.stream)
        let file = try MessagePipeline().aac(fromOpus: try OggOpusReader.read(ogg), configuration: .init())
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("later.m4a").path
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        try Self.expectAcceptable(path, opusSamples: message.stream.validSampleCount, name: "from Opus", tags: [
            "artist": "Mum", "DISTANCE_MARKER": "50%", "MESSAGE_ID": "message-1",
        ])
    }

    /// A child that dies, or cannot start, fails the AAC with its reason and leaves the Opus
    /// message whole.
    @Test(arguments: ["killed", "missing"])
    func aFailedEncodeLeavesTheOpusWhole(_ fault: String) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var aac = AACEncoder.Configuration()
        let program = folder.appendingPathComponent("voicemsg-decode").path
        if fault == "killed" {
            // Killed as the kernel's out-of-memory killer or an operator would kill it.
            try "#!/bin/sh\nkill -KILL $$\n".write(toFile: program, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        }
        aac.isolation.executablePath = program
        let message = try Self.pipeline(aac).process(
            .file(path: Self.samples.appendingPathComponent("01-first-km-dead-air.wav").path), metadata: Self.metadata())
        let failure = try #require(message.aac.flatMap { result -> AudioPipelineError? in
            if case .failure(let error) = result { return error }
            return nil
        })
        #expect(failure.isRetryable, "\(failure)")
        #expect(failure.description.contains(fault == "killed" ? "AAC encoder" : "cannot start"), "\(failure)")
        #expect(message.report.aac == nil)
        // The Opus is whole: it decodes to its own length at the target level.
        let path = folder.appendingPathComponent("message.opus").path
        try Data(OggOpusWriter.write(message.stream)).write(to: URL(fileURLWithPath: path))
        let measured = try ReferenceTools.ebur128(path)
        #expect(abs(measured.integrated - Self.target) <= 0.2 && measured.truePeak <= Self.ceiling)
    }

    /// The same PCM makes the same file: FFmpeg's encoder and muxer run bit-exact, with no
    /// creation time or library version in the file, so a retried job stores the same bytes
    /// (and ETag) as its first attempt.
    @Test func theSameMessageMakesTheSameFile() throws {
        let input = Self.samples.appendingPathComponent("02-halfway-stereo-44k.flac").path
        let first = try #require(try Self.pipeline().process(.file(path: input), metadata: Self.metadata()).aac?.get())
        let second = try #require(try Self.pipeline().process(.file(path: input), metadata: Self.metadata()).aac?.get())
        #expect(first.bytes == second.bytes)
    }

    /// The tag writer refuses what it cannot grow in place, and adds a metadata list where
    /// the file has none.
    @Test func tagsGoIntoMoovAtTheEndOnly() throws {
        let tags = OpusTags(vendor: "v", entries: [.init(key: "DISTANCE_MARKER", value: "5000m"), .init(key: "ARTIST", value: "Dad")])
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bare = folder.appendingPathComponent("bare.mp4").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                        "-c:a", "aac", "-b:a", "32k", "-fflags", "+bitexact", "-map_metadata", "-1", bare])
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: bare)))
        // FFmpeg writes an empty metadata list; without its `udta`, the whole box is made.
        let moov = try #require(try MP4Box.children(of: file, in: 0..<file.count).last)
        let udta = try #require(try MP4Box.children(of: file, in: moov.payload).first { $0.type == "udta" })
        var stripped = Array(file[0..<udta.range.lowerBound]) + Array(file[udta.range.upperBound...])
        stripped.replaceSubrange(moov.range.lowerBound..<(moov.range.lowerBound + 4),
                                 with: withUnsafeBytes(of: UInt32(moov.range.count - udta.range.count).bigEndian, Array.init))
        for (label, bytes) in [("with an empty list", file), ("without udta", stripped)] {
            let tagged = folder.appendingPathComponent("tagged.mp4").path
            try Data(try tags.taggingMP4(bytes)).write(to: URL(fileURLWithPath: tagged))
            let probe = try Self.probe(tagged)
            #expect(probe.tags["artist"] == "Dad" && probe.tags["DISTANCE_MARKER"] == "5000m", "\(label): \(probe.tags)")
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", tagged, "-f", "null", "-"])
        }

        // With `moov` first (faststart), growing it would move the media: refused.
        let faststart = folder.appendingPathComponent("faststart.mp4").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", bare, "-c", "copy", "-movflags", "+faststart", faststart])
        #expect(throws: AudioPipelineError.self) {
            try tags.taggingMP4(Array(try Data(contentsOf: URL(fileURLWithPath: faststart))))
        }
        #expect(throws: AudioPipelineError.self) { try tags.taggingMP4([0, 0, 0, 99] + Array("moov".utf8)) }
    }
}
