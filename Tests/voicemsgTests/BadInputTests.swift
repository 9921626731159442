import Foundation
import Testing
import TestSupport

/// Acceptance, bad input: each of these exits non-zero (3 when the only trouble is that there is
/// no speech, 1 otherwise) with exactly one line on stderr naming the file and the reason,
/// without crashing or hanging, and leaves nothing in the output folder.
@Suite struct BadInputTests {
    enum Case: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case emptyFile, randomBytes, truncatedWAV, truncatedFLAC, headerClaimsFourGiB
        case zeroChannels, rateOneHertz, rateThreeGigahertz, floatNaN, floatInfinity
        case twentyMinutes, pureSilence, pureNoise, directory, missingPath
        case outputFolderMissing, outputUnderRegularFile, outputIsDirectory

        var testDescription: String { rawValue }

        /// Words the reason must contain, where the reason is the tool's own.
        var expectedReason: String? {
            switch self {
            case .zeroChannels: return "0 channels"
            case .rateOneHertz, .rateThreeGigahertz: return "sample rate"
            case .floatNaN, .floatInfinity: return "NaN or infinite"
            case .twentyMinutes: return "minutes"
            case .pureSilence, .pureNoise: return "no speech"
            case .directory: return "directory"
            case .emptyFile: return "empty"
            case .missingPath: return "no such file"
            case .truncatedWAV, .headerClaimsFourGiB: return "truncated"
            default: return nil
            }
        }

        var expectedStatus: Int32 {
            switch self {
            case .pureSilence, .pureNoise: return 3
            default: return 1
            }
        }
    }

    struct Prepared {
        var input: String
        var output: String
        /// The path the error line must name.
        var named: String
    }

    /// Makes the input for `testCase` in `inputs`, and picks where the output goes in `outputs`.
    static func prepare(_ testCase: Case, inputs: URL, outputs: URL) throws -> Prepared {
        let input = inputs.appendingPathComponent(testCase.rawValue + ".wav").path
        let output = outputs.appendingPathComponent("out.opus").path
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: input)) }
        func speechSamples() throws -> [UInt8] {
            Fixtures.wavData([UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.speechWAV()))))
        }
        switch testCase {
        case .emptyFile:
            try write([])
        case .randomBytes:
            // A fixed xorshift sequence, so that a failure can be reproduced.
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            try write((0..<50_000).map { _ in
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                return UInt8(truncatingIfNeeded: state >> 24)
            })
        case .truncatedWAV:
            let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixtures.speechWAV())))
            try write(Array(whole.prefix(whole.count / 2)))
        case .truncatedFLAC:
            let flac = inputs.appendingPathComponent("whole.flac").path
            try Tool.run("sox", [try Fixtures.speechWAV(), flac])
            let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: flac)))
            try FileManager.default.removeItem(atPath: flac)
            let truncated = inputs.appendingPathComponent("truncated.flac").path
            try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: truncated))
            return Prepared(input: truncated, output: output, named: truncated)
        case .headerClaimsFourGiB:
            // Real speech, under a header that claims nearly 4 GiB of it.
            try write(Fixtures.wav(channels: 1, sampleRate: 22_050, bitsPerSample: 16,
                                   dataSizeClaim: 0xFFFF_FFF0, riffSizeClaim: 0xFFFF_FFF8, data: try speechSamples()))
        case .zeroChannels:
            try write(Fixtures.wav(channels: 0, sampleRate: 22_050, bitsPerSample: 16, data: try speechSamples()))
        case .rateOneHertz:
            try write(Fixtures.wav(channels: 1, sampleRate: 1, bitsPerSample: 16, data: try speechSamples()))
        case .rateThreeGigahertz:
            try write(Fixtures.wav(channels: 1, sampleRate: 3_000_000_000, bitsPerSample: 16, data: try speechSamples()))
        case .floatNaN:
            try write(Fixtures.wav(format: 3, channels: 1, sampleRate: 16_000, bitsPerSample: 32,
                                   data: Fixtures.floatBytes(Array(repeating: .nan, count: 32_000))))
        case .floatInfinity:
            try write(Fixtures.wav(format: 3, channels: 1, sampleRate: 16_000, bitsPerSample: 32,
                                   data: Fixtures.floatBytes((0..<32_000).map { $0.isMultiple(of: 2) ? .infinity : -.infinity })))
        case .twentyMinutes:
            try Tool.run("sox", ["-R", "-n", "-r", "8000", "-b", "16", "-c", "1", input, "synth", "1200", "pinknoise", "vol", "0.1"])
        case .pureSilence:
            try Tool.run("sox", ["-n", "-r", "16000", "-b", "16", "-c", "1", input, "trim", "0", "5"])
        case .pureNoise:
            try Tool.run("sox", ["-R", "-n", "-r", "16000", "-b", "16", "-c", "1", input, "synth", "5", "whitenoise", "vol", "0.3"])
        case .directory:
            try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: false)
        case .missingPath:
            break
        case .outputFolderMissing:
            let output = outputs.appendingPathComponent("no-such-folder/out.opus").path
            return Prepared(input: try Fixtures.speechWAV(), output: output, named: output)
        case .outputUnderRegularFile:
            // Tests may run as root, which ignores permission bits; a regular file in the middle
            // of the path stops everyone.
            let file = outputs.appendingPathComponent("notes.txt")
            try Data("not a folder".utf8).write(to: file)
            let output = file.appendingPathComponent("out.opus").path
            return Prepared(input: try Fixtures.speechWAV(), output: output, named: output)
        case .outputIsDirectory:
            // The temporary file is written, then the rename onto a folder fails: it must be removed.
            let folder = outputs.appendingPathComponent("taken.opus")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            return Prepared(input: try Fixtures.speechWAV(), output: folder.path, named: folder.path)
        }
        return Prepared(input: input, output: output, named: input)
    }

    @Test(arguments: Case.allCases)
    func failsCleanly(_ testCase: Case) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        let outputs = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let prepared = try Self.prepare(testCase, inputs: inputs, outputs: outputs)
        let before = try Self.listing(outputs)

        let result = try Tool.voicemsg(["encode", prepared.input, "-o", prepared.output, "--marker", "1km"])
        print("\(testCase.rawValue): exit \(result.status): \(result.standardError.trimmingCharacters(in: .newlines))")

        #expect(!result.timedOut, "voicemsg did not finish within 60 s")
        #expect(!result.wasSignalled, "voicemsg was killed by signal \(result.status)")
        #expect(result.status == testCase.expectedStatus)
        #expect(result.errorLines.count == 1, "stderr: \(result.standardError)")
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix(prepared.named + ": "), "the line must name \(prepared.named): \(line)")
        #expect(line.count > prepared.named.count + 6, "the line must give a reason: \(line)")
        if let reason = testCase.expectedReason {
            #expect(line.contains(reason), "the reason must say '\(reason)': \(line)")
        }
        #expect(try Self.listing(outputs) == before, "the output folder changed")
    }

    /// With several inputs, a bad one does not stop the good one, and the exit status says that
    /// something failed.
    @Test func oneBadInputAmongGoodOnes() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let good = folder.appendingPathComponent("good.wav").path
        try FileManager.default.copyItem(atPath: try Fixtures.speechWAV(), toPath: good)
        let bad = folder.appendingPathComponent("bad.wav").path
        try Data("RIFF, but not really".utf8).write(to: URL(fileURLWithPath: bad))

        let result = try Tool.voicemsg(["encode", good, bad, "--output-dir", outputs.path, "--marker", "halfway"])
        #expect(!result.timedOut && !result.wasSignalled)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1 && result.errorLines.first?.hasPrefix(bad + ": ") == true,
                "stderr: \(result.standardError)")
        #expect(try Self.listing(outputs) == ["good.opus"])
        let size = try FileManager.default.attributesOfItem(atPath: outputs.appendingPathComponent("good.opus").path)[.size] as? Int
        #expect((size ?? 0) > 1000)
    }

    /// Every name in `folder`, hidden ones included, recursively.
    static func listing(_ folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String { names.append(name) }
        return names.sorted()
    }
}
