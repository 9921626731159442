import AudioPipeline
import Foundation
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
import GPXReplay
import RunTracking
import Testing
@testable import voicemsg

/// The simulator's outputs that only the command line writes: the SVG plot and the mixdown.
struct SimulationOutputTests {
    /// Six messages crowded at the finish, with long names: before labels were placed, the last
    /// ones ran off the right edge and were drawn over each other.
    @Test func everyLabelShowsInFullAndNoneOverlaps() throws {
        let messages = (0..<6).map {
            RunSimulator.Message(
                file: "m\($0).opus", sender: "The whole running club, table \($0)",
                marker: $0 == 0 ? .finish : .beforeFinish(meters: Double($0) * 40), durationSeconds: 15)
        }
        let timeline = try RunSimulatorFixture.simulate("strava-run-gap.gpx", messages: messages)
        let svg = RunTimelineSVG.render(timeline, width: 960)
        // Every <text> that names a message, read back out of the SVG itself.
        let pattern = #/<text x="([0-9.]+)" y="([0-9.]+)" fill="[^"]+">([^<]+)</text>/#
        let boxes = svg.matches(of: pattern).map { match in
            LabelBox(
                x: Double(match.1)!, baseline: Double(match.2)!,
                width: Double(String(match.3).replacingOccurrences(of: "&amp;", with: "&").count) * LabelBox.characterWidth)
        }
        #expect(boxes.count == 6)
        for box in boxes {
            #expect(box.x >= 0 && box.x + box.width <= 960, "label at x \(box.x), width \(box.width)")
            #expect(box.top >= 0)
        }
        for (index, box) in boxes.enumerated() {
            for other in boxes[(index + 1)...] { #expect(!box.overlaps(other)) }
        }
    }

    @Test func svgShowsTheRunAndEachMessage() throws {
        let timeline = try RunSimulatorFixture.simulate("garmin-run-smart-recording.gpx", messages: RunSimulatorFixture.threeMessages)
        let svg = RunTimelineSVG.render(timeline)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("<polyline"))
        for name in ["Ann · 1000m", "Bob · 50%", "Cat · finish"] { #expect(svg.contains(name)) }
        // Well-formed XML, by Foundation's own parser.
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    @Test func mixdownPlacesMessagesWithCompressedOrRealSilence() throws {
        let tone = (0..<48_000).map { Float(sin(Double($0) * 0.05) * 0.5) }
        let messages = RunSimulatorFixture.threeMessages.map { var message = $0; message.samples = tone; message.durationSeconds = 1; return message }
        let timeline = try RunSimulatorFixture.simulate("garmin-run-smart-recording.gpx", messages: messages)
        let compressed = RunMixdown.render(timeline, messages: messages)
        #expect(compressed.count == 3 * 48_000 + 3 * 2 * 48_000)
        let real = RunMixdown.render(timeline, messages: messages, silence: .realTime)
        let start = Int((timeline.plays[1].startSeconds * 48_000).rounded())
        #expect(real.count == Int((timeline.plays[2].endSeconds * 48_000).rounded()))
        #expect(real[start - 1] == 0 && real[start + 100] == tone[100])

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mixdown-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WAVWriter.write(compressed, sampleRate: 48_000, to: path)
        // ffprobe is the independent judge of the WAV.
        let output = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,channels,codec_name,duration_ts", "-of", "csv=p=0", path]).text
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16le,48000,1,\(compressed.count)")
    }
}

/// A simulated run over a real track, as RunSimulatorTests builds it.
enum RunSimulatorFixture {
    static let gpxFolder: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("samples/gpx")
    }()

    static func simulate(_ file: String, messages: [RunSimulator.Message]) throws -> RunSimulator.Timeline {
        let fixes = try GPXReader.read(contentsOfFile: gpxFolder.appendingPathComponent(file).path).fixes()
        let planned = RunSimulator.trackedDistance(of: fixes)
        return try RunSimulator.simulate(
            fixes: fixes, messages: messages,
            configuration: .init(scheduler: .init(plannedDistance: planned)))
    }

    static let threeMessages = [
        RunSimulator.Message(file: "km1.opus", sender: "Ann", marker: .absolute(meters: 1000), durationSeconds: 12),
        RunSimulator.Message(file: "half.opus", sender: "Bob", marker: .percent(50), durationSeconds: 20),
        RunSimulator.Message(file: "finish.opus", sender: "Cat", marker: .finish, durationSeconds: 8),
    ]
}
