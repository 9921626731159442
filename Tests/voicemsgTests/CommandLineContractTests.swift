import Foundation
import Testing
import TestSupport

/// What docs/cli.md promises about the command line, each promise run through the built
/// `voicemsg` as a user would, with ffmpeg judging any property of the audio.
@Suite struct CommandLineContractTests {
    static let track = RunSimulatorFixture.gpxFolder.appendingPathComponent("strava-run-with-pauses.gpx").path

    /// "Relative markers need the run's planned distance ...; without it they are refused": not
    /// placed on the track's own length.
    @Test func relativeMarkerWithoutPlannedDistanceIsAClearError() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let halfway = folder.appendingPathComponent("halfway.opus").path
        let encode = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", halfway, "--marker", "halfway"])
        try #require(encode.status == 0, "\(encode.standardError)")

        let refused = try Tool.voicemsg(["simulate", "--gpx", Self.track, halfway])
        #expect(refused.status == 64, "a relative marker without a plan is a usage error: \(refused.standardError)")
        #expect(refused.errorLines.count == 1, "one line: \(refused.standardError)")
        let line = try #require(refused.errorLines.first)
        #expect(line.contains("halfway.opus") && line.contains("50%") && line.contains("--planned-distance"), "\(line)")
        #expect(refused.standardOutput.isEmpty, "no table for a run that was not simulated")

        // With the plan, the same message is placed at half of it.
        let planned = try Tool.voicemsg(["simulate", "--gpx", Self.track, halfway, "--planned-distance", "12km", "--json"])
        try #require(planned.status == 0, "\(planned.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: planned.standardOutput) as? [String: Any])
        let plays = try #require(json["plays"] as? [[String: Any]])
        #expect(plays.first?["markerMeters"] as? Double == 6_000)

        // And --help documents no fallback to the track's length.
        let help = try Tool.voicemsg(["simulate", "--help"]).text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!help.contains("default: the track's length") && !help.contains("tracked length is the plan"), "\(help)")
        #expect(help.contains("needed by relative markers") && help.contains("refused without it (exit 64)"), "\(help)")
    }

    /// "`inspect --json` always has ... `integratedLoudness` (LUFS), `truePeak` (dBTP)", for
    /// digital silence and speech at -60 dB too. A level is null exactly when ffmpeg finds
    /// nothing to measure.
    @Test(arguments: ["silence", "speech at -60 dBFS"])
    func inspectJSONAlwaysHasBothLevels(_ kind: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("input.wav").path
        if kind == "silence" {
            let zeros = [UInt8](repeating: 0, count: 48_000 * 2 * 2)
            try Data(Fixtures.wav(channels: 1, sampleRate: 48_000, bitsPerSample: 16, data: zeros)).write(to: URL(fileURLWithPath: path))
        } else {
            try Tool.run("sox", [try Fixtures.speechWAV(), path, "gain", "-n", "-60"])
        }
        let result = try Tool.voicemsg(["inspect", "--json", path])
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let loudness = try #require(json["integratedLoudness"], "\(kind): no integratedLoudness key")
        let peak = try #require(json["truePeak"], "\(kind): no truePeak key")

        let judge = try FFmpegLevels.measure(path)
        print("\(kind): inspect \(loudness) LUFS, \(peak) dBTP; ffmpeg \(judge.integratedLoudness) LUFS, \(judge.truePeak) dBTP")
        if let loudness = loudness as? Double {
            #expect(abs(loudness - judge.integratedLoudness) <= 0.5)
        } else {
            #expect(loudness is NSNull)
            #expect(judge.integratedLoudness <= -70, "null, but ffmpeg measured \(judge.integratedLoudness) LUFS")
        }
        if let peak = peak as? Double {
            #expect(abs(peak - judge.truePeak) <= 0.5)
        } else {
            #expect(peak is NSNull)
            #expect(judge.truePeak == -.infinity, "null, but ffmpeg measured \(judge.truePeak) dBTP")
        }
    }

    /// "`--json` prints one object for one input and an array for several", a failed input
    /// included, as an error object.
    @Test func inspectJSONPrintsAnArrayWithAnErrorObject() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.opus").path
        let encode = try Tool.voicemsg(["encode", try Fixtures.speechWAV(), "-o", good, "--marker", "5km"])
        try #require(encode.status == 0, "\(encode.standardError)")
        let bad = folder.appendingPathComponent("bad.wav").path
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: bad))

        let result = try Tool.voicemsg(["inspect", "--json", bad, good])
        #expect(result.status == 1, "one input failed")
        let array = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]],
                                 "several inputs give an array: \(result.text)")
        try #require(array.count == 2, "one entry per input: \(result.text)")
        #expect(array[0]["file"] as? String == bad)
        let error = try #require(array[0]["error"] as? String)
        #expect(error.hasPrefix(bad + ": "), "\(error)")
        #expect(array[0]["errorCode"] as? String != nil)
        #expect(result.errorLines.contains(error), "the same line went to stderr: \(result.standardError)")
        #expect(array[1]["file"] as? String == good)
        #expect(array[1]["durationSeconds"] as? Double != nil)

        // encode's shape for the same pair: an array, the failure as an error object.
        let encodeBoth = try Tool.voicemsg(["encode", bad, try Fixtures.speechWAV(), "--output-dir", folder.path,
                                            "--marker", "5km", "--json"])
        let encoded = try #require(try JSONSerialization.jsonObject(with: encodeBoth.standardOutput) as? [[String: Any]])
        #expect(Set(encoded[0].keys) == ["input", "error", "errorCode"])
        #expect(Set(array[0].keys) == ["file", "error", "errorCode"])
    }

    /// "64 for bad arguments": simulate's distance and pace, negative values out of range, and
    /// a container that contradicts the output's extension.
    @Test(arguments: [
        (["simulate", "--gpx", CommandLineContractTests.track, "m.opus", "--planned-distance", "5xx"], "--planned-distance"),
        (["simulate", "--gpx", CommandLineContractTests.track, "m.opus", "--planned-distance", "50%"], "--planned-distance"),
        (["simulate", "--gpx", CommandLineContractTests.track, "m.opus", "--pace", "fast"], "--pace"),
        (["encode", "IN", "-o", "OUT.opus", "--marker", "5km", "--speech-threshold=-3"], "--speech-threshold"),
        (["encode", "IN", "-o", "OUT.opus", "--marker", "5km", "--min-speech=-5"], "--min-speech"),
        (["encode", "IN", "-o", "OUT.opus", "--marker", "5km", "--highpass=-5"], "--highpass"),
        (["encode", "IN", "-o", "OUT.caf", "--marker", "5km", "--format", "ogg"], "--format"),
    ])
    func badArgumentsExit64(_ arguments: [String], _ option: String) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Fixtures.speechWAV()
        let resolved = arguments.map {
            $0 == "IN" ? input : $0.hasPrefix("OUT.") ? folder.appendingPathComponent($0).path : $0
        }
        let result = try Tool.voicemsg(resolved)
        #expect(result.status == 64, "\(arguments.joined(separator: " ")): \(result.standardError)")
        let first = try #require(result.errorLines.first)
        #expect(first.hasPrefix("Error: ") && first.contains(option), "the line names \(option): \(first)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")
    }

    /// "the true peak must stay under -1 dBTP ... if not, encode again". At 6 kb/s the codec's
    /// overshoot outgrows every pass on this hot recording: the file is written and the run
    /// exits 0, but never silently: a warning line and the report say so.
    @Test func aMissedTruePeakCeilingIsNeverSilent() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = InspectRecordedLoudnessTests.samples.appendingPathComponent("05-hot-finish-1km.wav").path
        for bitrate in ["6", "24"] {
            let output = folder.appendingPathComponent("t\(bitrate).opus").path
            let result = try Tool.voicemsg(["encode", input, "-o", output, "--marker", "5km", "--bitrate", bitrate, "--json"])
            // Documented: the file is written and the run exits 0, with the warning.
            try #require(result.status == 0, "\(result.standardError)")
            let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
            let report = try #require(json["report"] as? [String: Any])
            let normalization = try #require(report["normalization"] as? [String: Any])
            let flagged = try #require(normalization["isTruePeakAboveCeiling"] as? Bool, "the report says whether the ceiling held")
            #expect(normalization["truePeakCeilingDB"] as? Double == -1)
            let warnings = result.errorLines.filter { $0.contains("warning:") }

            // ffmpeg judges the written file.
            let judge = try FFmpegLevels.measure(output)
            print("\(bitrate) kb/s: ffmpeg true peak \(judge.truePeak) dBTP, flagged \(flagged), stderr: \(result.standardError)")
            if bitrate == "6" {
                try #require(judge.truePeak > -1, "this input must overshoot at 6 kb/s, or the test checks nothing")
                #expect(flagged)
                #expect(warnings.count == 1, "\(result.standardError)")
                let line = try #require(warnings.first)
                #expect(line.hasPrefix(input + ": warning:") && line.contains("-1 dBTP") && line.contains("--bitrate"), "\(line)")
            } else {
                try #require(judge.truePeak < -1, "at 24 kb/s the ceiling holds by ffmpeg's meter too")
                #expect(!flagged)
                #expect(warnings.isEmpty, "\(result.standardError)")
            }
        }
    }
}
