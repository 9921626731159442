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
            print(String(format: "%@ %@: marker %.0f m, started %.0f m at %.0f s (%+.1f m; %+.1f m along the track), %@", file, play.marker, play.markerMeters, play.startMeters, play.startSeconds, play.latenessMeters, play.pathLatenessMeters, play.reason.rawValue))
            // Nothing else was playing for any of these: each starts as its marker is reached.
            #expect(play.reason != .catchingUp)
            // A marker the runner passed with no fix (a 140 s GPS gap, the 8 s after an
            // auto-pause) can only be heard on the fix that shows it passed, however far past.
            let before = timeline.distance.last { $0.seconds < play.startSeconds }
            let crossing = timeline.distance.first { $0.seconds >= play.startSeconds }
            if let before, let crossing, crossing.seconds == play.startSeconds, crossing.meters - before.meters > 15 {
                #expect(before.meters < play.markerMeters && play.latenessMeters <= crossing.meters - before.meters)
            } else {
                #expect(abs(play.latenessMeters) <= 15)
            }
        }
    }

    @Test func onACleanPathEachMessageStartsAtItsMarkerAlongIt() throws {
        // A smoothed real track walked at 1.2 m/s with a fix every 10 s and no noise: the
        // track is the true path, and path lateness measures the start along it.
        let track = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath("strava-run-gap.gpx"))
        let dense = CleanPath.make(from: track.points, window: 31, speed: 1.2)
        let fixes = stride(from: 0, to: dense.fixes.count, by: 10).map { dense.fixes[$0] }
        let messages = [500.0, 1000, 1500, 2000, 2500].map {
            RunSimulator.Message(file: "\(Int($0)).opus", marker: .absolute(meters: $0), durationSeconds: 5)
        }
        let timeline = try RunSimulator.simulate(fixes: fixes, messages: messages)
        #expect(timeline.plays.map(\.file) == messages.map(\.file))
        let whole = zip(fixes, fixes.dropFirst()).reduce(0.0) { $0 + RealTrackTests.straightLine($1.0, $1.1) }
        #expect(abs(timeline.pathMeters - whole) < 0.5, "the path's length \(timeline.pathMeters) m against \(whole) m")
        for play in timeline.plays {
            // Along the path the fixes lie on, measured independently of the tracker.
            var along = 0.0
            for (a, b) in zip(fixes, fixes.dropFirst()) where b.time - fixes[0].time <= play.startSeconds {
                along += RealTrackTests.straightLine(a, b)
            }
            let last = fixes.last { $0.time - fixes[0].time <= play.startSeconds }!
            along += (play.startSeconds - (last.time - fixes[0].time)) * 1.2
            print(String(format: "%@: started %.1f m along the path (%+.1f m; simulate says %+.1f m)", play.file, along, along - play.markerMeters, play.pathLatenessMeters))
            #expect(abs(play.pathLatenessMeters - (along - play.markerMeters)) < 0.5)
            // Fixes 12 m apart: the scheduler wakes itself between them, and the start falls
            // within 15 m of the marker along the true path.
            #expect(abs(play.pathLatenessMeters) <= 15)
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

    /// A course of 1,234 m planned as 1.24 km, as the plan page rounds a course's length: the
    /// distance along the course stops at 1,234 m, and the finish message plays there, not
    /// when the runner, a minute after crossing the line, ends the run.
    @Test func theFinishPlaysAtTheCoursesEndWhenThePlanIsAFewMetresLonger() throws {
        let perNorth = 111_132.954
        let course = try Course(points: [.init(latitude: 50, longitude: 4), .init(latitude: 50 + 1234 / perNorth, longitude: 4)])
        let finish = course.length
        // 3 m/s to the end of the course, then a minute standing at the line.
        let fixes = (0...Int(finish / 3) + 60).map { second in
            GPSFix(time: Double(second), latitude: 50 + min(Double(second) * 3, finish) / perNorth, longitude: 4, horizontalAccuracy: 3)
        }
        let timeline = try RunSimulator.simulate(
            fixes: fixes, messages: [.init(file: "finish.opus", marker: .finish, durationSeconds: 5)],
            configuration: .init(scheduler: .init(plannedDistance: 1240), course: course))
        let play = try #require(timeline.plays.first)
        #expect(play.startSeconds <= finish / 3 + 5, "the finish played at \(play.startSeconds) s, at the line at \(finish / 3) s")
        #expect(play.startSeconds >= finish / 3 - 5)
    }

    @Test func relativeMarkerWithoutPlannedDistanceIsAClearError() throws {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath("garmin-standing-jitter.gpx")).fixes()
        let error = try #require(throws: RunTrackingError.self) {
            try RunSimulator.simulate(fixes: fixes, messages: Self.threeMessages)
        }
        #expect(error.code == .invalidMarker)
    }
}
