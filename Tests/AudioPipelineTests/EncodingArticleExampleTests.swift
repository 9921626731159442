import AudioPipeline
import Foundation
import RunTracking
import Testing
import TestSupport

/// The example of AudioPipeline's "Encode a message" article (the DocC catalogue's
/// EncodingAMessage.md), compiled and run on a bundled sample. The code between the `Article`
/// comments is the article's code block, word for word; the last test checks that.
struct EncodingArticleExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // Article begin
    /// Encodes a friend's recording into a message that plays at `marker`: Ogg Opus for browsers
    /// and Android, and the same packets in CAF for Apple's players.
    func encodeMessage(recording: String, marker: String, sender: String, into folder: URL) throws -> MessageReport {
        let pipeline = MessagePipeline()
        let metadata = MessageMetadata(marker: try DistanceMarker(parsing: marker), sender: sender)
        let message = try pipeline.process(.file(path: recording), metadata: metadata)

        let (ogg, report) = try message.file(in: .ogg)
        try Data(ogg).write(to: folder.appendingPathComponent("message.opus"))
        let caf = try OpusContainer.caf.write(message.stream)  // rewrapped, not encoded again
        try Data(caf).write(to: folder.appendingPathComponent("message.caf"))
        return report
    }

    /// What a person reads: how long and how loud the message came out, or why there is none.
    func describe(recording: String, into folder: URL) -> String {
        do {
            let report = try encodeMessage(recording: recording, marker: "halfway", sender: "Mum", into: folder)
            let loudness = report.loudnessAfter.integratedLoudness ?? -70
            return String(printf: "%.1f s at %.1f LUFS", report.output.durationSeconds, loudness)
        } catch let error as AudioPipelineError where error.code == .noSpeech {
            return "no speech in it: record again"
        } catch {
            return "\(error)"  // one line that names the file and says why
        }
    }
    // Article end

    /// The bundled stereo FLAC: both files written, ffmpeg hears the Ogg at -16 LUFS with its
    /// true peak under the ceiling, the CAF holds the same packets, and both carry the marker.
    @Test func theExampleEncodesASampleIntoOggAndCAF() throws {
        let folder = try TemporaryDirectory()
        let recording = Self.root.appendingPathComponent("samples/02-halfway-stereo-44k.flac").path
        let line = describe(recording: recording, into: URL(fileURLWithPath: folder.path))
        print(line)
        #expect(line.hasSuffix(" LUFS") && line.contains(" s at -1"), "\(line)")

        let judged = try ReferenceTools.ebur128(folder.file("message.opus"))
        #expect(abs(judged.integrated - -16) <= 0.5, "ffmpeg: \(judged.integrated) LUFS")
        #expect(judged.truePeak <= -1, "ffmpeg: \(judged.truePeak) dBTP")

        let (ogg, oggContainer) = try OpusContainer.read(Data(contentsOf: URL(fileURLWithPath: folder.file("message.opus"))))
        let (caf, cafContainer) = try OpusContainer.read(Data(contentsOf: URL(fileURLWithPath: folder.file("message.caf"))))
        #expect(oggContainer == .ogg && cafContainer == .caf)
        #expect(caf.packets == ogg.packets && caf.validSampleCount == ogg.validSampleCount)
        #expect(ogg.tags["DISTANCE_MARKER"] == "50%" && ogg.tags["ARTIST"] == "Mum")
    }

    /// The two refusals the example tells apart: silence is "no speech", and a file that is
    /// not audio is one line naming it.
    @Test func theExampleTellsSilenceFromAFileThatIsNotAudio() throws {
        let folder = try TemporaryDirectory()
        let silence = folder.file("silence.wav")
        try WAVWriter.write([Float](repeating: 0, count: 3 * 16_000), sampleRate: 16_000, to: silence)
        #expect(describe(recording: silence, into: URL(fileURLWithPath: folder.path)) == "no speech in it: record again")

        let text = folder.file("notes.wav")
        try Data("not a recording\n".utf8).write(to: URL(fileURLWithPath: text))
        let refusal = describe(recording: text, into: URL(fileURLWithPath: folder.path))
        #expect(refusal.hasPrefix(text + ": ") && !refusal.contains("\n"), "\(refusal)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("message.opus")))
    }

    @Test func theArticleShowsThisCode() throws {
        let block = try #require(try articleBlock(inTestFile: #filePath, indentation: 4))
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/AudioPipeline/AudioPipeline.docc/EncodingAMessage.md"), encoding: .utf8)
        #expect(article.contains(block), "the article's example differs from this test's code")
    }
}
