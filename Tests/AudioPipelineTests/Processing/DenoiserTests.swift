import Foundation
import Testing
import TestSupport
@testable import AudioPipeline

/// The Denoiser's own promises: its output lines up with its input sample for sample, and the
/// files it loads are checked first. They need DeepFilterNet installed (`make setup`).
@Suite struct DenoiserTests {
    /// Speech from espeak-ng at 48 kHz as Float, with white noise 20 dB under its peak level.
    static func noisySpeech() throws -> (clean: [Float], noisy: [Float]) {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("talk.wav").path
        let samples = folder.appendingPathComponent("talk.f32").path
        try Tool.run("espeak-ng", ["-w", raw, "Keep going Sam, you are doing great!"])
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", raw, "-af", "apad=pad_dur=0.5,volume=-6dB",
                                "-ar", "48000", "-f", "f32le", "-ac", "1", samples])
        let clean = try Data(contentsOf: URL(fileURLWithPath: samples)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var generator = SeededGenerator(seed: 29)
        let noisy = clean.map { $0 + 0.01 * Float(generator.gaussian()) }
        return (clean, noisy)
    }

    @Test func theCleanedSignalLinesUpWithTheInput() throws {
        let library = try #require(try? DeepFilterNetLibrary.installed.get(), "DeepFilterNet is not installed: run make setup")
        let (clean, noisy) = try Self.noisySpeech()
        var output: [Float] = []
        try Denoiser().run(library, over: noisy, speechPeakLevel: -20) { output.append(contentsOf: $0) }
        #expect(output.count == noisy.count)

        // The lag at which the output best matches the clean speech: the model's delay, taken
        // off, leaves none.
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for n in max(0, -lag)..<min(clean.count, output.count - lag) { sum += Double(clean[n]) * Double(output[n + lag]) }
            return sum
        }
        let best = (-600...600).max { correlation($0) < correlation($1) }
        #expect(best == 0, "the output lags the input by \(best ?? 0) samples")

        // And it is cleaner: the noise alone, in the last 0.3 s of the half second padded after
        // the speech, is far lower.
        func level(_ x: [Float]) -> Double { 10 * log10(x.suffix(14_400).reduce(0) { $0 + Double($1 * $1) } / 14_400) }
        #expect(level(noisy) - level(output) > 10)
    }

    @Test func aFileIsLoadedOnlyWithTheDigestPinnedForIt() throws {
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file").path
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        // SHA-256("abc"), FIPS 180-2's first example.
        let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        try DeepFilterNetLibrary.verify(path, sha256: digest)
        let wrong = String(digest.dropLast()) + "e"
        #expect(throws: AudioPipelineError.self) { try DeepFilterNetLibrary.verify(path, sha256: wrong) }
        #expect(throws: AudioPipelineError.self) { try DeepFilterNetLibrary.verify(path + ".missing", sha256: digest) }
        #expect(throws: AudioPipelineError.self) { try DeepFilterNetLibrary.load(from: folder.path) }
    }
}
