import Foundation
import Testing
import TestSupport

/// Distances, paces and markers are parsed by ArgumentParser: a bad one is a usage error,
/// exit 64, with the parser's reason and a usage line, before any file is read.
@Suite struct ArgumentParsingTests {
    static let gpx = RunSimulatorFixture.gpxFolder.appendingPathComponent("garmin-run-smart-recording.gpx").path

    @Test(arguments: [
        (["--planned-distance", "5xx"], "invalid distance '5xx'"),
        (["--planned-distance", "50%"], "invalid distance '50%'"),
        (["--planned-distance", "finish-1km"], "invalid distance 'finish-1km'"),
        (["--planned-distance", "0km"], "invalid distance '0km'"),
        (["--pace", "fast"], "invalid pace 'fast'"),
        (["--pace", "0:00/km"], "invalid pace '0:00/km'"),
    ])
    func simulateRefusesABadValueAsAUsageError(_ option: [String], _ reason: String) throws {
        // The message need not exist: the arguments are refused before anything is read.
        let result = try Tool.voicemsg(["simulate", "--gpx", Self.gpx, "missing.opus"] + option)
        print("simulate \(option.joined(separator: " ")): exit \(result.status): \(result.errorLines.first ?? "")")
        #expect(!result.timedOut && !result.wasSignalled)
        #expect(result.status == 64, "a bad argument exits with EX_USAGE")
        let first = try #require(result.errorLines.first)
        #expect(first.contains(reason), "\(first)")
        #expect(first.contains(option[0]), "the line names the option: \(first)")
        #expect(result.errorLines.contains { $0.hasPrefix("Usage: voicemsg simulate") }, "\(result.standardError)")
    }

    /// The library's ranges are the CLI's: a bitrate libopus cannot code at is refused as a
    /// usage error with the library's bounds.
    @Test(arguments: [
        (["--bitrate", "3"], "--bitrate must be within 6...510 kb/s."),
        (["--complexity", "11"], "--complexity must be within 0...10."),
        (["--frame-ms", "30"], "--frame-ms must be 10, 20, 40 or 60."),
        (["--target-lufs", "-80"], "--target-lufs must be within -70...-5."),
    ])
    func encodeRefusesSettingsOutsideTheLibrarysRanges(_ option: [String], _ message: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        let result = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", output, "--marker", "5km"] + option)
        #expect(result.status == 64)
        #expect(result.errorLines.first == "Error: " + message, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `--help` shows every default, and they are the library's.
    @Test func encodeHelpShowsEveryDefault() throws {
        let help = try Tool.voicemsg(["encode", "--help"]).text
        let options = ["target-lufs", "true-peak", "max-gain", "bitrate", "complexity", "frame-ms", "pad-before",
                       "pad-after", "speech-threshold", "min-speech", "highpass", "format"]
        // One entry per option, its wrapped lines joined.
        let entries = help.components(separatedBy: "\n  --").dropFirst().map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        for option in options {
            let entry = try #require(entries.first { $0.hasPrefix(option + " ") }, "no --\(option) in --help")
            #expect(entry.contains("default: "), "--\(option) shows no default: \(entry)")
        }
        for (option, value) in [("target-lufs", "-16.0"), ("bitrate", "24.0"), ("speech-threshold", "8.0"), ("min-speech", "150.0")] {
            #expect(entries.contains { $0.hasPrefix(option + " ") && $0.contains("(default: \(value))") }, "--\(option)")
        }
    }
}
