import Foundation
import Testing
import GPXReplay
import RunTracking

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

    @Test func relativeMarkerWithoutPlannedDistanceIsAClearError() throws {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath("garmin-standing-jitter.gpx")).fixes()
        let error = try #require(throws: RunTrackingError.self) {
            try RunSimulator.simulate(fixes: fixes, messages: Self.threeMessages)
        }
        #expect(error.code == .invalidMarker)
    }
}
