import AudioPipeline
import Foundation
import Testing
import RunTracking
import TestSupport

/// Acceptance, decoding: every format libsndfile reads decodes the same from memory (virtual
/// I/O, as the server hands over uploads) as from a path, and the pipeline gives the same
/// message either way. Stereo is downmixed; 8 channels pass and 9 are refused.
@Suite struct MemoryDecodingTests {
    struct Format: Sendable, CustomTestStringConvertible {
        var name: String
        var fileName: String
        /// The tool and its arguments; `IN` and `OUT` stand for the paths.
        var command: [String]
        var testDescription: String { name }
    }

    static let formats: [Format] = [
        Format(name: "WAV 16-bit", fileName: "s16.wav", command: ["sox", "IN", "-e", "signed-integer", "-b", "16", "OUT"]),
        Format(name: "WAV 24-bit stereo", fileName: "s24.wav", command: ["sox", "IN", "-e", "signed-integer", "-b", "24", "-c", "2", "OUT"]),
        Format(name: "WAV float", fileName: "f32.wav", command: ["sox", "IN", "-e", "floating-point", "-b", "32", "OUT"]),
        Format(name: "WAV µ-law", fileName: "ulaw.wav", command: ["sox", "IN", "-e", "u-law", "OUT"]),
        Format(name: "WAV A-law", fileName: "alaw.wav", command: ["sox", "IN", "-e", "a-law", "OUT"]),
        Format(name: "WAV IMA ADPCM", fileName: "ima.wav", command: ["sox", "IN", "-e", "ima-adpcm", "OUT"]),
        Format(name: "WAV MS ADPCM", fileName: "ms.wav", command: ["sox", "IN", "-e", "ms-adpcm", "OUT"]),
        Format(name: "FLAC", fileName: "x.flac", command: ["sox", "IN", "OUT"]),
        Format(name: "MP3", fileName: "x.mp3", command: ["ffmpeg", "-nostdin", "-v", "error", "-i", "IN", "-c:a", "libmp3lame", "-b:a", "64k", "OUT"]),
        Format(name: "Ogg Vorbis", fileName: "x.ogg", command: ["ffmpeg", "-nostdin", "-v", "error", "-i", "IN", "-c:a", "libvorbis", "-q:a", "4", "OUT"]),
        Format(name: "Ogg Opus", fileName: "x.opus", command: ["opusenc", "--quiet", "IN", "OUT"]),
        Format(name: "AIFF", fileName: "x.aiff", command: ["sox", "IN", "OUT"]),
        Format(name: "CAF PCM", fileName: "x.caf", command: ["ffmpeg", "-nostdin", "-v", "error", "-i", "IN", "-c:a", "pcm_s16le", "OUT"]),
    ]

    /// Speech with silence around it, as a 16-bit 22.05 kHz WAV.
    static func speechFile(in folder: URL) throws -> String {
        let recording = try SpeechRecordings.make(seconds: 5, loudness: -23, sampleRate: 22_050, channels: 1,
                                                  container: .wav, name: "memory-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("speech.wav").path
        try FileManager.default.moveItem(atPath: recording.path, toPath: path)
        return path
    }

    @Test(arguments: formats)
    func memoryMatchesPath(_ format: Format) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.speechFile(in: folder)
        let path = folder.appendingPathComponent(format.fileName).path
        let command = format.command.map { $0 == "IN" ? source : $0 == "OUT" ? path : $0 }
        try Tool.run(command[0], Array(command.dropFirst()))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))

        let fromPath = try AudioDecoder.decode(path: path)
        let fromMemory = try AudioDecoder.decode(data: data, name: format.fileName)
        print("\(format.name): \(fromPath.format), \(fromPath.sampleRate) Hz, \(fromPath.channelCount) ch, \(fromPath.durationSeconds) s")
        #expect(fromMemory.format == fromPath.format)
        #expect(fromMemory.sampleRate == fromPath.sampleRate)
        #expect(fromMemory.channelCount == fromPath.channelCount)
        #expect(fromMemory.samples == fromPath.samples)
        // It is the recording: about 5 s, and not silent.
        #expect(abs(fromPath.durationSeconds - 5) < 0.1)
        let rms = (fromPath.samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, fromPath.samples.count))).squareRoot()
        #expect(rms > 0.005)

        let metadata = MessageMetadata(marker: try DistanceMarker(parsing: "3km"), sender: "Sam")
        let messageFromPath = try MessagePipeline().process(.file(path: path), metadata: metadata)
        let messageFromMemory = try MessagePipeline().process(.data(data, name: format.fileName), metadata: metadata)
        #expect(messageFromMemory.report.speech == messageFromPath.report.speech)
        #expect(messageFromMemory.report.loudnessBefore == messageFromPath.report.loudnessBefore)
        #expect(messageFromMemory.report.loudnessAfter == messageFromPath.report.loudnessAfter)
        #expect(messageFromMemory.stream.validSampleCount == messageFromPath.stream.validSampleCount)
        #expect(try OpusStreamDecoder.decode(messageFromMemory.stream) == OpusStreamDecoder.decode(messageFromPath.stream))
    }

    /// A float stereo WAV with different channels decodes to their mean, sample for sample.
    @Test func stereoIsDownmixedToTheMean() throws {
        let frames = 16_000
        let left = (0..<frames).map { Float(0.5 * sin(Double($0) * 2 * .pi * 440 / 16_000)) }
        let right = (0..<frames).map { Float(0.25 * sin(Double($0) * 2 * .pi * 1000 / 16_000)) }
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        let bytes = Self.floatWAV(interleaved, channels: 2, sampleRate: 16_000)
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stereo.wav").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        for audio in [try AudioDecoder.decode(path: path), try AudioDecoder.decode(data: Data(bytes), name: "stereo.wav")] {
            #expect(audio.channelCount == 2)
            #expect(audio.samples.count == frames)
            let worst = zip(audio.samples, zip(left, right)).map { abs($0 - ($1.0 + $1.1) / 2) }.max() ?? 1
            #expect(worst <= 1e-7)
        }
    }

    @Test(arguments: [8, 9])
    func channelLimit(_ channels: Int) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(channels)ch.wav").path
        try Tool.run("sox", ["-n", "-r", "16000", "-b", "16", "-c", "\(channels)", path, "synth", "1", "sine", "440", "vol", "0.3"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if channels <= 8 {
            let fromPath = try AudioDecoder.decode(path: path)
            let fromMemory = try AudioDecoder.decode(data: data, name: "\(channels)ch.wav")
            #expect(fromPath.channelCount == channels && fromMemory.channelCount == channels)
            #expect(fromPath.samples.count == 16_000 && fromMemory.samples == fromPath.samples)
        } else {
            for attempt in [{ try AudioDecoder.decode(path: path) }, { try AudioDecoder.decode(data: data, name: "9ch.wav") }] {
                let error = try #require(throws: AudioPipelineError.self) { try attempt() }
                #expect(error.code == .unsupportedInput)
                #expect(error.description.contains("9 channels"), "\(error)")
            }
        }
    }

    /// A canonical IEEE-float WAV.
    static func floatWAV(_ samples: [Float], channels: Int, sampleRate: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { bytes += $0 } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { bytes += $0 } }
        bytes += Array("RIFF".utf8); u32(36 + samples.count * 4)
        bytes += Array("WAVEfmt ".utf8); u32(16)
        u16(3); u16(channels); u32(sampleRate); u32(sampleRate * channels * 4); u16(channels * 4); u16(32)
        bytes += Array("data".utf8); u32(samples.count * 4)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { bytes += $0 } }
        return bytes
    }
}
