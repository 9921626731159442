import Foundation
import Testing
import TestSupport

/// Acceptance, hostile files: each is decoded in the isolated FFmpeg child and ends with one line
/// on stderr naming the file and exit status 1, in bounded memory, with voicemsg itself never
/// signalled and nothing left in the output folder. With good files beside it in one batch, the
/// good ones are still encoded.
@Suite struct HostileInputTests {
    enum Case: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case truncatedM4A, chunkOffsetsPastTheEnd, webMElementOfFourGiB, sampleTableOfTwoToThe31
        case randomBytesAfterFtyp, smallFileOfTwoHours

        var testDescription: String { rawValue }

        var fileName: String {
            switch self {
            case .webMElementOfFourGiB: return "\(rawValue).webm"
            case .smallFileOfTwoHours: return "\(rawValue).amr"
            default: return "\(rawValue).m4a"
            }
        }

        /// Words the reason must contain.
        var expectedReason: String? {
            switch self {
            case .truncatedM4A: return "truncated"
            case .smallFileOfTwoHours: return "minutes"
            default: return nil
            }
        }
    }

    /// Speech as an M4A with its `moov` first, as phones write it.
    static func m4a(in folder: URL) throws -> [UInt8] {
        let path = folder.appendingPathComponent("speech.m4a").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", try Fixtures.speechWAV(),
                                        "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", path])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func make(_ testCase: Case, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(testCase.fileName).path
        var bytes: [UInt8]
        switch testCase {
        case .truncatedM4A:
            let whole = try m4a(in: folder)
            bytes = Array(whole.prefix(whole.count / 2))
        case .chunkOffsetsPastTheEnd:
            // The moov's chunk offsets (stco) all point past the end of the file.
            bytes = try m4a(in: folder)
            let table = try #require(Self.find("stco", in: bytes))
            // A full box: size, type, version and flags, the entry count, then the entries.
            let count = Self.readUInt32(bytes, table + 12)
            for entry in 0..<count {
                let at = table + 16 + 4 * entry
                Self.writeUInt32(&bytes, at, Self.readUInt32(bytes, at) + bytes.count)
            }
        case .sampleTableOfTwoToThe31:
            bytes = try m4a(in: folder)
            let sizes = try #require(Self.find("stsz", in: bytes))
            // stsz: version and flags, the common size (0: one per sample), the sample count.
            Self.writeUInt32(&bytes, sizes + 16, 1 << 31)
            // stts: one entry of 2^31 samples.
            let times = try #require(Self.find("stts", in: bytes))
            Self.writeUInt32(&bytes, times + 12, 1)
            Self.writeUInt32(&bytes, times + 16, 1 << 31)
        case .randomBytesAfterFtyp:
            let whole = try m4a(in: folder)
            let ftypSize = Self.readUInt32(whole, 0)
            var state: UInt64 = 0x2545_F491_4F6C_DD1D
            bytes = Array(whole.prefix(ftypSize)) + (0..<200_000).map { _ in
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                return UInt8(truncatingIfNeeded: state >> 32)
            }
        case .webMElementOfFourGiB:
            let webm = folder.appendingPathComponent("speech.webm").path
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", try Fixtures.speechWAV(),
                                            "-c:a", "libopus", "-b:a", "32k", "-f", "webm", webm])
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: webm)))
            // The first SimpleBlock (0xA3) of the first Cluster claims 4 GiB.
            let cluster = try #require(Self.find([0x1F, 0x43, 0xB6, 0x75], in: bytes))
            let block = try #require(bytes[(cluster + 4)...].firstIndex(of: 0xA3))
            let lengthOfSize = bytes[block + 1].leadingZeroBitCount + 1
            bytes.replaceSubrange((block + 1)..<(block + 1 + lengthOfSize), with: [0x01, 0, 0, 0x01, 0, 0, 0, 0])
        case .smallFileOfTwoHours:
            // Near-silence in AMR-NB with DTX: one byte per 20 ms, and no length in the header.
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                                            "anoisesrc=a=0.0005:c=pink:r=8000", "-t", "7200", "-c:a", "libopencore_amrnb",
                                            "-dtx", "1", "-b:a", "4.75k", path])
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            try #require(bytes.count < 1_000_000, "the two-hour file is \(bytes.count) bytes")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: Case.allCases)
    func failsAloneWithOneLine(_ testCase: Case) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let input = try Self.make(testCase, in: folder)
        let rss = folder.appendingPathComponent("rss.txt").path

        // GNU time reports voicemsg's own peak RSS; the child's is capped by its RLIMIT_AS.
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time is missing (make setup installs it)")
        let result = try Tool.run(
            time, ["-f", "%M", "-o", rss, try Tool.built("voicemsg"), "encode", input,
                   "-o", outputs.appendingPathComponent("out.opus").path, "--marker", "1km"],
            check: false,
            // A debug build spends many seconds of CPU on the two-hour file's first ten
            // minutes, and a test run that shares two cores with everything else stretches that.
            timeout: 300)
        let kilobytes = try String(contentsOfFile: rss, encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) }
        print("\(testCase.rawValue): exit \(result.status), \(kilobytes ?? -1) KB peak RSS: \(result.standardError.trimmingCharacters(in: .newlines))")

        #expect(!result.timedOut, "voicemsg did not finish")
        // GNU time exits 128 + the signal when the command is killed.
        #expect(result.status == 1, "voicemsg must exit 1, not die")
        #expect(result.errorLines.count == 1, "stderr: \(result.standardError)")
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix(input + ": ") && line.count > input.count + 6, "\(line)")
        if let reason = testCase.expectedReason { #expect(line.contains(reason), "\(line)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.path).isEmpty)
        // Ten minutes at 48 kHz are held as 16-bit samples (55 MiB) before the limit stops the
        // two-hour file; nothing else comes near.
        let peak = try #require(kilobytes)
        #expect(peak < 256 * 1024, "voicemsg peaked at \(peak) KB")
    }

    /// A batch: the hostile file fails with one line, the WAV and the WebM around it are encoded.
    @Test func batchGoesOnPastAHostileFile() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let hostile = try Self.make(.sampleTableOfTwoToThe31, in: folder)
        let wav = folder.appendingPathComponent("first.wav").path
        try FileManager.default.copyItem(atPath: try Fixtures.speechWAV(), toPath: wav)
        let webm = folder.appendingPathComponent("third.webm").path
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav, "-c:a", "libopus", "-f", "webm", webm])

        let result = try Tool.voicemsg(["encode", wav, hostile, webm, "--output-dir", outputs.path, "--marker", "2km"])
        #expect(!result.timedOut && !result.wasSignalled)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1 && result.errorLines.first?.hasPrefix(hostile + ": ") == true,
                "stderr: \(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.path).sorted() == ["first.opus", "third.opus"])
    }

    static func find(_ type: String, in bytes: [UInt8]) -> Int? {
        find(Array(type.utf8), in: bytes).map { $0 - 4 }
    }

    /// The offset of `pattern`; for a box type, `find(_:in:)` above returns the box's start.
    static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    static func readUInt32(_ bytes: [UInt8], _ at: Int) -> Int {
        (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }

    static func writeUInt32(_ bytes: inout [UInt8], _ at: Int, _ value: Int) {
        for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * (3 - index))) }
    }
}
