import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import AudioPipeline

struct RunSimulatorTests {
    static func simulate(_ file: String, messages: [RunSimulator.Message]) throws -> RunSimulator.Timeline {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath(file)).fixes()
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

    @Test(arguments: ["strava-run-gap.gpx", "garmin-run-smart-recording.gpx", "strava-run-with-pauses.gpx"])
    func messagesStartWithinFifteenMetersOfTheirMarkers(file: String) throws {
        let timeline = try Self.simulate(file, messages: Self.threeMessages)
        #expect(timeline.plays.map(\.file) == ["km1.opus", "half.opus", "finish.opus"])
        #expect(timeline.unplayed.isEmpty)
        for play in timeline.plays {
            print(String(format: "%@ %@: marker %.0f m, started %.0f m at %.0f s (%+.1f m), %@", file, play.marker, play.markerMeters, play.startMeters, play.startSeconds, play.latenessMeters, play.reason.rawValue))
            // Nothing else was playing for any of these: each starts as its marker is reached.
            #expect(play.reason != .catchingUp)
            #expect(abs(play.latenessMeters) <= 15)
        }
    }

    @Test func crowdedMarkersStillAllPlayInOrder() throws {
        let messages = (0..<6).map {
            RunSimulator.Message(file: "m\($0).opus", marker: .absolute(meters: 1000 + Double($0) * 10), durationSeconds: 15)
        }
        let timeline = try Self.simulate("strava-run-gap.gpx", messages: messages)
        #expect(timeline.plays.map(\.file) == messages.map(\.file))
        for (first, second) in zip(timeline.plays, timeline.plays.dropFirst()) {
            #expect(second.startSeconds >= first.endSeconds + 3)
            #expect(second.reason == .catchingUp)
        }
    }

    @Test func svgShowsTheRunAndEachMessage() throws {
        let timeline = try Self.simulate("garmin-run-smart-recording.gpx", messages: Self.threeMessages)
        let svg = RunTimelineSVG.render(timeline)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("<polyline"))
        for name in ["Ann · 1000m", "Bob · 50%", "Cat · finish"] { #expect(svg.contains(name)) }
        // Well-formed XML, by Foundation's own parser.
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    @Test func mixdownPlacesMessagesWithCompressedOrRealSilence() throws {
        let tone = (0..<48_000).map { Float(sin(Double($0) * 0.05) * 0.5) }
        let messages = Self.threeMessages.map { var message = $0; message.samples = tone; message.durationSeconds = 1; return message }
        let timeline = try Self.simulate("garmin-run-smart-recording.gpx", messages: messages)
        let compressed = RunMixdown.render(timeline, messages: messages)
        #expect(compressed.count == 3 * 48_000 + 3 * 2 * 48_000)
        let real = RunMixdown.render(timeline, messages: messages, silence: .realTime)
        let start = Int((timeline.plays[1].startSeconds * 48_000).rounded())
        #expect(real.count == Int((timeline.plays[2].endSeconds * 48_000).rounded()))
        #expect(real[start - 1] == 0 && real[start + 100] == tone[100])

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mixdown-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WaveFile.write(compressed, sampleRate: 48_000, to: path)
        // ffprobe is the independent judge of the WAV.
        let output = try ExternalTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,channels,codec_name,duration_ts", "-of", "csv=p=0", path]).text
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16le,48000,1,\(compressed.count)")
    }

    @Test func relativeMarkerWithoutPlannedDistanceIsAClearError() throws {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath("garmin-standing-jitter.gpx")).fixes()
        let error = try #require(throws: AudioPipelineError.self) {
            try RunSimulator.simulate(fixes: fixes, messages: Self.threeMessages)
        }
        #expect(error.code == .invalidMarker)
    }
}
