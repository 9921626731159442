import Foundation
import Testing
import TestSupport

/// The command line as a newcomer first uses it, following docs/cli.md: each test runs the
/// built `voicemsg`, with ffprobe and ffmpeg judging the files.
@Suite struct CommandLineUsageTests {
    /// The batch example, `--output-dir out/`, works on a fresh checkout: the folder, nested
    /// ones included, is created.
    @Test func outputDirIsCreated() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out/nested").path + "/"
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), try Fixtures.speechWAV(lead: 1, tail: 1),
                                        "--output-dir", out, "--marker", "5km"])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ["speech-0.5-1.0.opus", "speech-1.0-1.0.opus"])
        for name in written {
            #expect(try FFprobe.containerAndCodec(out + name) == "ogg opus", "\(name)")
        }
    }

    /// `encode -o mum.caf` writes CAF without `--format caf`: the container follows the
    /// extension unless --format says otherwise; ffprobe judges what was written.
    @Test(arguments: [
        ("mum.caf", nil, "caf opus"),
        ("mum.opus", nil, "ogg opus"),
        ("mum.ogg", nil, "ogg opus"),
        ("mum.bin", "caf", "caf opus"),
        ("mum.caf", "caf", "caf opus"),
        ("mum.m4a", nil, "mov,mp4,m4a,3gp,3g2,mj2 aac"),
        ("mum.bin", "m4a", "mov,mp4,m4a,3gp,3g2,mj2 aac"),
    ] as [(String, String?, String)])
    func containerFollowsTheExtension(_ name: String, _ format: String?, _ expected: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent(name).path
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", "5km"]
                                       + (format.map { ["--format", $0] } ?? []))
        try #require(result.status == 0, "\(result.standardError)")
        #expect(try FFprobe.containerAndCodec(output) == expected, "-o \(name) --format \(format ?? "-")")
    }

    /// `encode -o x.m4a --json` reports the AAC version beside the Opus it was made with: the
    /// same length, its own level; an AAC that cannot be made fails that input in one line and
    /// writes nothing.
    @Test func m4aOutputReportsItsAACAndFailsCleanly() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("mum.m4a").path
        let input = try Fixtures.speechWAV()
        let result = try Tool.voicemsg(["encode", input, "-o", output, "--marker", "5km", "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let report = try #require(json["report"] as? [String: Any])
        let aac = try #require(report["aac"] as? [String: Any], "\(report.keys)")
        let opus = try #require(report["output"] as? [String: Any])
        #expect(aac["sampleCount"] as? Int == opus["sampleCount"] as? Int)
        let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
        #expect(aac["bytes"] as? Int == size)
        let loudness = try #require(aac["loudness"] as? [String: Any])
        #expect(abs((loudness["integratedLoudness"] as? Double ?? 0) + 16) <= 0.3, "\(loudness)")

        // voicemsg-decode replaced by a program that is killed at once.
        let killed = folder.appendingPathComponent("killed-decoder").path
        try "#!/bin/sh\nkill -KILL $$\n".write(toFile: killed, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: killed)
        let failing = folder.appendingPathComponent("failing.m4a").path
        let failed = try Tool.voicemsg(["encode", input, "-o", failing, "--marker", "5km"], environment: ["VOICEMSG_DECODE": killed])
        #expect(failed.status == 1)
        #expect(failed.errorLines.count == 1 && failed.errorLines.first?.hasPrefix("\(input): the AAC encoder") == true, "\(failed.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: failing))
    }

    /// A contradiction between -o's extension and --format is refused, and nothing is written.
    @Test(arguments: [("mum.caf", "ogg"), ("mum.opus", "caf"), ("mum.oga", "caf"), ("mum.m4a", "webm"), ("mum.opus", "m4a")])
    func containerContradictionIsRefused(_ name: String, _ format: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent(name).path
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", "5km", "--format", format])
        #expect(result.status == 64)
        let first = try #require(result.errorLines.first)
        #expect(first.hasPrefix("Error: -o \(output)") && first.contains("--format \(format)"), "\(first)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Every numeric option reads a negative number as its value (`--max-gain -3` as
    /// `--target-lufs -20`), never as an unknown flag ("Missing value"); then its range check
    /// answers, naming the option.
    @Test(arguments: [
        (["--max-gain", "-3"], "Error: --max-gain cannot be negative."),
        (["--pad-before", "-10"], "Error: --pad-before cannot be negative."),
        (["--pad-after", "-10"], "Error: --pad-after cannot be negative."),
        (["--min-speech", "-5"], "Error: --min-speech cannot be negative."),
        (["--speech-threshold", "-3"], "Error: --speech-threshold must be within 0.5...40 dB."),
        (["--highpass", "-5"], "Error: --highpass must be within 0...300 Hz (0 disables it)."),
        (["--bitrate", "-24"], "Error: --bitrate must be within 6...510 kb/s."),
        (["--complexity", "-1"], "Error: --complexity must be within 0...10."),
        (["--frame-ms", "-20"], "Error: --frame-ms must be 10, 20, 40 or 60."),
        (["--true-peak", "-30"], "Error: --true-peak must be within -20...0 dBTP."),
    ])
    func negativeValuesAreValuesThenRangeChecked(_ option: [String], _ message: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        let spaced = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", "5km"] + option)
        #expect(spaced.status == 64)
        #expect(spaced.errorLines.first == message, "\(option.joined(separator: " ")): \(spaced.standardError)")
        // "--option=-3" is the same value, and meets the same check.
        let joined = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", "5km",
                                        option.joined(separator: "=")])
        #expect(joined.status == 64)
        #expect(joined.errorLines.first == message, "\(option.joined(separator: "=")): \(joined.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Negative values inside the ranges are taken, spaced as in `--target-lufs -20`: the
    /// control for the test above.
    @Test func negativeValuesInRangeAreAccepted() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", "5km",
                                        "--target-lufs", "-20", "--true-peak", "-3", "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        // ffmpeg judges that the values took effect.
        let judge = try FFmpegLevels.measure(output)
        #expect(abs(judge.integratedLoudness - -20) <= 0.5, "\(judge)")
        #expect(judge.truePeak <= -3 + 0.1, "\(judge)")
    }

    /// simulate's table says what a negative "late m" means, and does not call the finish
    /// message hundreds of metres "late" when the run ended short of the plan: a note says so.
    @Test func simulateTableExplainsItself() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let finish = folder.appendingPathComponent("finish.opus").path
        let encode = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", finish, "--marker", "finish"])
        try #require(encode.status == 0, "\(encode.standardError)")
        // The track is about 12.2 km; a 15 km plan puts the finish where the run never gets.
        let result = try Tool.voicemsg(["simulate", "--gpx", CommandLineContractTests.track, finish, "--planned-distance", "15km", "--json"])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let ran = try #require(json["distanceMeters"] as? Double)
        try #require(ran < 15_000, "the run must end short of the plan for this test")
        // The track's own points, jitter and all, add up to more than the tracker counts.
        let path = try #require(json["pathDistanceMeters"] as? Double)
        #expect(path > ran && path < ran * 1.06, "points \(path) m, tracker \(ran) m")

        let table = try Tool.voicemsg(["simulate", "--gpx", CommandLineContractTests.track, finish, "--planned-distance", "15km"]).text
        print(table)
        let lines = table.split(separator: "\n").map(String.init)
        let row = try #require(lines.first { $0.hasPrefix("finish.opus") })
        #expect(!row.contains("+"), "a message the run never reached is not called late: \(row)")
        #expect(lines.contains { $0.hasPrefix("late m:") && $0.contains("Negative") }, "a legend for late m")
        let shortfall = Int((15_000 - ran).rounded())
        #expect(lines.contains { $0.contains("finish.opus") && $0.contains("\(shortfall) m short") }, "a note says the run ended short")
    }

    /// `voicemsg serve --help` names the command the user typed ("USAGE: voicemsg serve", not
    /// voicemsg-server's), and --host says that the default takes connections on every interface.
    @Test func serveHelpNamesTheCommandAndTheHost() throws {
        let help = try Tool.voicemsg(["serve", "--help"])
        #expect(help.status == 0)
        let text = help.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("USAGE: voicemsg serve"), "\(help.text)")
        #expect(!text.contains("voicemsg-server serve"), "\(help.text)")
        #expect(text.contains("--host <host> Address to listen on: 0.0.0.0 takes connections on every interface"), "\(text)")
        #expect(text.contains("(default: 0.0.0.0)"))
    }

    /// The startup line counts its workers in good English: "1 worker".
    @Test func serveStartupLineCountsWorkers() async throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try await ChildProcess.start(
            try Tool.built("voicemsg"),
            arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1",
                        "--data-dir", folder.appendingPathComponent("data").path],
            logPath: folder.appendingPathComponent("serve.log").path)
        defer { Task { await process.stop() } }
        // Generous: a loaded full run has taken over 30 s to start a server.
        let line = await process.waitForLog(matching: "voicemsg serve:.*listening on[^\n]*", seconds: 180).map(String.init)
        let startup = try #require(line, "no startup line: \(process.log)")
        #expect(startup.hasSuffix("; 1 worker"), "\(startup)")
    }
}
