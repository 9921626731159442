import AudioPipeline
import Foundation
import Testing
import TestSupport

/// A WAV written to a pipe (`ffmpeg -i x.webm -f wav pipe:1 > out.wav`) cannot have its sizes
/// filled in afterwards: ffmpeg leaves 0xFFFFFFFF in the RIFF and `data` sizes, other writers 0.
/// It is a real recording and decodes whole, in the child (the server's way) as in libsndfile
/// (the command line's way); a WAV whose declared size is larger than the file is still cut short.
@Suite struct StreamedWAVTests {
    enum Variant: String, CaseIterable, Sendable {
        /// As ffmpeg writes it to a pipe.
        case sizesUnknown
        /// The same bytes with both sizes 0, as some streaming writers leave them.
        case sizesZero
        /// Unknown sizes, and the stream stopped in the middle of a sample.
        case cutMidSample
    }

    /// The speech source, through WebM/Opus (the brief's example), back out as a piped WAV.
    static func pipedWAV(in folder: URL) throws -> (source: String, webm: String, wav: [UInt8]) {
        let source = try SpeechRecordings.make(seconds: 4, loudness: -24, sampleRate: 48_000, channels: 1, container: .wav,
                                               name: "streamed-\(UUID().uuidString)")
        let webm = folder.appendingPathComponent("x.webm").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", source.path, "-c:a", "libopus", "-b:a", "64k", webm])
        let piped = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", webm, "-f", "wav", "pipe:1"])
        return (source.path, webm, [UInt8](piped.standardOutput))
    }

    /// Where the `data` chunk's size field is.
    static func dataSizeOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 12
        while offset + 8 <= bytes.count {
            if String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) == "data" { return offset + 4 }
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    static func rmsDecibels(_ samples: [Float]) -> Double {
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        return 10 * log10(power)
    }

    @Test(arguments: Variant.allCases)
    func decodesWhole(_ variant: Variant) throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try Self.pipedWAV(in: folder)
        defer { try? FileManager.default.removeItem(atPath: made.source) }
        var bytes = made.wav
        let sizeField = try #require(Self.dataSizeOffset(bytes))
        // The test is about this header: ffmpeg really left both sizes open.
        #expect(Array(bytes[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(bytes[sizeField..<(sizeField + 4)]) == [0xFF, 0xFF, 0xFF, 0xFF])
        let sampleBytes = bytes.count - (sizeField + 4)
        switch variant {
        case .sizesUnknown: break
        case .sizesZero:
            bytes.replaceSubrange(4..<8, with: [0, 0, 0, 0])
            bytes.replaceSubrange(sizeField..<(sizeField + 4), with: [0, 0, 0, 0])
        case .cutMidSample:
            bytes.removeLast(1001)
        }
        let path = folder.appendingPathComponent("out.wav").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // Whole 16-bit mono frames in the file: what every decoder must give back.
        let frames = (bytes.count - (sizeField + 4)) / 2
        #expect(frames == (variant == .cutMidSample ? (sampleBytes - 1001) / 2 : sampleBytes / 2))

        let source = try AudioDecoder.decode(path: made.source)
        let decodes = [
            ("child", try AudioDecoder.decode(path: path, isolation: DecoderIsolation(policy: .always))),
            ("child, upload", try AudioDecoder.decode(data: Data(bytes), name: "upload", isolation: DecoderIsolation(policy: .always))),
            ("libsndfile", try AudioDecoder.decode(path: path)),
        ]
        for (name, decoded) in decodes {
            print(String(format: "streamed WAV %@, %@: %d frames (%d in the file), %.4f s (source %.4f s), %.2f dB RMS (source %.2f dB)",
                         variant.rawValue, name, decoded.samples.count, frames, decoded.durationSeconds, source.durationSeconds,
                         Self.rmsDecibels(decoded.samples), Self.rmsDecibels(source.samples)))
            #expect(decoded.samples.count == frames, "\(name)")
            #expect(decoded.sampleRate == 48_000)
            // Opus through WebM keeps the length to within a frame and the level to a fraction of a dB.
            #expect(abs(decoded.durationSeconds - source.durationSeconds) <= (variant == .cutMidSample ? 0.02 + 1001.0 / 96_000 : 0.02),
                    "\(name)")
            #expect(abs(Self.rmsDecibels(decoded.samples) - Self.rmsDecibels(source.samples)) <= 0.5, "\(name)")
        }
        // The child and libsndfile agree to the sample.
        #expect(decodes[0].1.samples == decodes[2].1.samples)
        #expect(decodes[1].1.samples == decodes[0].1.samples)
    }

    /// A declared size is a claim: a WAV holding less than it declares was cut, in the child too.
    @Test func declaredSizeStillMeansTruncated() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try Self.pipedWAV(in: folder)
        defer { try? FileManager.default.removeItem(atPath: made.source) }
        var bytes = made.wav
        let sizeField = try #require(Self.dataSizeOffset(bytes))
        let declared = bytes.count - (sizeField + 4)
        withUnsafeBytes(of: UInt32(declared).littleEndian) { bytes.replaceSubrange(sizeField..<(sizeField + 4), with: $0) }
        withUnsafeBytes(of: UInt32(bytes.count - 8).littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
        bytes.removeLast(1000)
        let error = try #require(throws: AudioPipelineError.self) {
            try AudioDecoder.decode(data: Data(bytes), name: "upload", isolation: DecoderIsolation(policy: .always))
        }
        #expect(error.code == .unreadableInput)
        #expect(error.message.contains("truncated"), "\(error.message)")
    }
}
