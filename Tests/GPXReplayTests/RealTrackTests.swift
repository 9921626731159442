import Foundation
import Testing
import GPXReplay
import RunTracking

/// The four real tracks in samples/gpx: they parse, their duration is pinned, their distance
/// is judged against the tracks' own points (not against a number the tracker once gave), and
/// each file's quirk is shown to be handled.
struct RealTrackTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var pointCount: Int
        var durationSeconds: Double
        /// Fixes where the runner stood still, jittering; nil for a run.
        var standing: ClosedRange<Int>?
        var description: String { file }
    }

    static let expectations = [
        Expectation(file: "strava-run-gap.gpx", pointCount: 1118, durationSeconds: 1256),
        Expectation(file: "garmin-run-smart-recording.gpx", pointCount: 206, durationSeconds: 948),
        Expectation(file: "strava-run-with-pauses.gpx", pointCount: 1697, durationSeconds: 5127),
        Expectation(file: "garmin-standing-jitter.gpx", pointCount: 46, durationSeconds: 222, standing: 16...31),
    ]

    static func replay(_ file: String) throws -> (fixes: [GPSFix], readings: [DistanceTracker.Reading]) {
        let fixes = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath(file)).fixes()
        var tracker = DistanceTracker()
        return (fixes, fixes.map { tracker.update(with: $0) })
    }

    static func straightLine(_ a: GPSFix, _ b: GPSFix) -> Double {
        Geodesic.distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
    }

    @Test(arguments: expectations)
    func parsesAndMeasuresWithinItsOwnPoints(_ expected: Expectation) throws {
        let track = try GPXReader.read(contentsOfFile: PlaybackFixtures.gpxPath(expected.file))
        #expect(track.version == "1.1")
        #expect(track.points.count == expected.pointCount)
        #expect(track.rejectedPointCount == 0)
        let (fixes, readings) = try Self.replay(expected.file)
        #expect(fixes.last!.time - fixes.first!.time == expected.durationSeconds)
        let raw = CleanPath.rawSum(of: fixes)
        let total = readings.last!.meters
        print(String(format: "%@: %d points, %.0f s, raw point-to-point %.0f m, tracker %.0f m", expected.file, fixes.count, expected.durationSeconds, raw, total))
        if let standing = expected.standing {
            // A walk with a stand in the middle. At most: the points' sum with the stand as
            // the straight line across it. At least: the straight lines of the two walks.
            let before = Array(fixes[...standing.lowerBound]), after = Array(fixes[standing.upperBound...])
            let most = CleanPath.rawSum(of: before) + Self.straightLine(fixes[standing.lowerBound], fixes[standing.upperBound])
                + CleanPath.rawSum(of: after)
            let least = Self.straightLine(before.first!, before.last!) + Self.straightLine(after.first!, after.last!)
            #expect(total >= least && total <= most, "\(least) ≤ \(total) ≤ \(most)")
        } else {
            // The points' sum is an upper bound; the jitter is all the tracker may take off.
            #expect(total >= raw * 0.96 && total <= raw * 1.01)
        }
        // Metres never decrease.
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.meters <= $1.meters })
    }

    static func impliedSpeed(_ fixes: [GPSFix], _ index: Int) -> Double {
        let a = fixes[index - 1], b = fixes[index]
        let meters = Geodesic.distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
        return meters / (b.time - a.time)
    }

    @Test func stravaGapIsBridgedAndItsSpikesIgnored() throws {
        let (fixes, readings) = try Self.replay("strava-run-gap.gpx")
        let gapIndex = try #require(fixes.indices.dropFirst().max { fixes[$0].time - fixes[$0 - 1].time < fixes[$1].time - fixes[$1 - 1].time })
        #expect(fixes[gapIndex].time - fixes[gapIndex - 1].time == 140)
        // Around the gap the file holds fixes at 14 to 82 m/s; none of them is believed.
        let spikes = (gapIndex - 5...gapIndex + 5).filter { $0 != gapIndex && Self.impliedSpeed(fixes, $0) > 12 }
        #expect(spikes.count >= 5)
        for index in spikes { #expect(readings[index].outcome != .accepted) }
        // The runner covered about 170 m in the 147 s from the last good fix before the gap to
        // the first good one after it (a walk); the straight line counts, the spikes do not.
        let across = readings[gapIndex + 10].meters - readings[gapIndex - 6].meters
        print("strava-run-gap: \(Int(across)) m counted across the gap")
        #expect(across > 150 && across < 210)
    }

    @Test func garminSmartRecordingGapsAndDuplicateTime() throws {
        let (fixes, readings) = try Self.replay("garmin-run-smart-recording.gpx")
        let duplicates = fixes.indices.dropFirst().filter { fixes[$0].time == fixes[$0 - 1].time }
        #expect(duplicates.count == 1)
        for index in duplicates { #expect(readings[index].outcome == .outOfOrder) }
        let gaps = fixes.indices.dropFirst().filter { fixes[$0].time - fixes[$0 - 1].time > 50 }
        #expect(gaps.map { fixes[$0].time - fixes[$0 - 1].time } == [106, 52])
        for index in gaps {
            #expect(readings[index].outcome == .bridgedGap)
            // The straight line across a gap counts: the run goes on through it.
            #expect(readings[index].meters - readings[index - 1].meters > 30)
        }
    }

    @Test func stravaPausesAndTheSpikeAfterOne() throws {
        let (fixes, readings) = try Self.replay("strava-run-with-pauses.gpx")
        let pauses = fixes.indices.dropFirst().filter { fixes[$0].time - fixes[$0 - 1].time > 70 }
        #expect(pauses.map { fixes[$0].time - fixes[$0 - 1].time } == [73, 155, 102])
        for index in pauses {
            #expect(readings[index].outcome == .bridgedGap)
            // Across a pause only the straight line from the last good fix counts.
            let before = try #require((0..<index).last { readings[$0].outcome == .accepted })
            let line = Geodesic.distance(
                fromLatitude: fixes[before].latitude, longitude: fixes[before].longitude,
                toLatitude: fixes[index].latitude, longitude: fixes[index].longitude)
            #expect(readings[index].meters - readings[index - 1].meters <= line + 2)
        }
        let spike = try #require(fixes.indices.dropFirst().first { fixes[$0].time > fixes[$0 - 1].time && Self.impliedSpeed(fixes, $0) > 60 })
        #expect(pauses.contains { spike - $0 < 5 && spike > $0 })
        #expect(readings[spike].outcome == .outlier)
        #expect(readings[spike].meters == readings[spike - 1].meters)
    }

    @Test func garminStandingJitterAddsLittle() throws {
        let (fixes, readings) = try Self.replay("garmin-standing-jitter.gpx")
        // Fixes 16...31: about 90 s standing in one spot, jittering (with 19 s and 21 s gaps).
        let raw = CleanPath.rawSum(of: Array(fixes[16...31]))
        let added = readings[31].meters - readings[16].meters
        print(String(format: "garmin-standing-jitter: raw %.1f m, tracker %.1f m while standing", raw, added))
        #expect(raw > 25)
        #expect(added < 5)
    }
}
