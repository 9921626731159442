import AudioPipeline
import Foundation
import Testing
import TestSupport

/// Formats are recognized by their first bytes, never by name: each file here is made by ffmpeg
/// (or sox) under a name that says nothing, and common files that are not audio are named.
@Suite struct AudioSnifferTests {
    static let made: [(format: AudioSniffer.Format, arguments: [String])] = [
        (.wav, ["-c:a", "pcm_s16le", "-f", "wav"]),
        (.flac, ["-c:a", "flac", "-f", "flac"]),
        (.ogg, ["-c:a", "libopus", "-f", "ogg"]),
        (.mp3, ["-c:a", "libmp3lame", "-f", "mp3"]),
        (.aiff, ["-c:a", "pcm_s16be", "-f", "aiff"]),
        (.caf, ["-c:a", "alac", "-f", "caf"]),
        (.webm, ["-c:a", "libopus", "-f", "webm"]),
        (.matroska, ["-c:a", "libopus", "-f", "matroska"]),
        (.m4a, ["-c:a", "aac", "-f", "ipod"]),
        (.mp4, ["-c:a", "aac", "-f", "mp4"]),
        (.threeGP, ["-ar", "8000", "-c:a", "libopencore_amrnb", "-f", "3gp"]),
        (.quickTime, ["-c:a", "aac", "-f", "mov"]),
        (.adts, ["-c:a", "aac", "-f", "adts"]),
        (.amrNB, ["-ar", "8000", "-c:a", "libopencore_amrnb", "-f", "amr"]),
        (.amrWB, ["-ar", "16000", "-c:a", "libvo_amrwbenc", "-f", "amr"]),
    ]

    @Test func everyRecorderFormatIsRecognizedByItsBytes() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (format, arguments) in Self.made {
            let path = folder.appendingPathComponent("recording.bin").path
            // -fflags +bitexact keeps ffmpeg's ID3 tag out of the MP3, so the frame sync is tested.
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                    "-fflags", "+bitexact"] + arguments + [path])
            let prefix = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: AudioSniffer.prefixLength) ?? Data()
            #expect(AudioSniffer.recognize(prefix: prefix) == format, "\(format): \(Array(prefix.prefix(16)))")
            #expect(AudioSniffer.refusal(prefix: prefix) == nil)
        }
    }

    static let otherFiles: [([UInt8], String)] = [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8), "a JPEG image"),
        (Array("<!DOCTYPE html><html><body>Sorry</body></html>".utf8), "an HTML page"),
        (Array("\n  <html lang=\"en\">".utf8), "an HTML page"),
        ([0x89] + Array("PNG\r\n".utf8), "a PNG image"),
        (Array("%PDF-1.7".utf8), "a PDF document"),
        (Array("{\"error\": \"x\"}".utf8), "JSON text"),
        (Array("name=Sam&marker=5km&message=hello".utf8), "plain text"),
    ]

    @Test(arguments: otherFiles)
    func otherFilesAreRefusedWithAReason(_ bytes: [UInt8], _ words: String) throws {
        #expect(AudioSniffer.recognize(prefix: bytes) == nil)
        let refusal = try #require(AudioSniffer.refusal(prefix: bytes))
        #expect(refusal.contains(words), "\(refusal)")
    }

    /// Bytes that are nothing known are left to the decoder, which knows more formats.
    @Test func unknownBytesAreNotRefusedHere() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        #expect(AudioSniffer.recognize(prefix: bytes) == nil)
        #expect(AudioSniffer.refusal(prefix: bytes) == nil)
        #expect(AudioSniffer.refusal(prefix: [UInt8](repeating: 7, count: 64)) == nil)
    }
}
