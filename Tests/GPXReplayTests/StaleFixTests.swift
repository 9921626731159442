import Foundation
import Testing
import RunTracking

/// Stale fixes after the app wakes up add nothing (OpenTracks once counted thousands of km
/// from them): the last fix handed over again, with its old time and newly timed, and Null
/// Island (0°N 0°E), where a receiver without a fix puts one.
struct StaleFixTests {
    static func total(_ fixes: [GPSFix]) -> Double {
        var tracker = DistanceTracker()
        for fix in fixes { _ = tracker.update(with: fix) }
        return tracker.meters
    }

    @Test(arguments: TrackerCorpus.variants.filter(\.staleFixes).map(\.description))
    func staleFixesAfterAWakeUpAddNothing(_ description: String) throws {
        let variant = try #require(TrackerCorpus.variants.first { $0.description == description })
        let run = try CorpusRun(variant, samples: TrackerCorpusTests.samples)
        // The same run without them: drop each fix at exactly the place of the one before.
        var fresh: [GPSFix] = []
        for fix in run.fixes where fresh.last.map({ $0.latitude != fix.latitude || $0.longitude != fix.longitude }) ?? true {
            fresh.append(fix)
        }
        #expect(run.fixes.count - fresh.count == 5)
        let withStale = Self.total(run.fixes), without = Self.total(fresh)
        print(String(format: "%@: %.1f m with the stale fixes, %.1f m without", description, withStale, without))
        // The stale fix becomes the bridge over the sleep and is undone or overtaken by the
        // fresh fixes; the filter settles a metre differently at most.
        #expect(withStale - without < 2)
        #expect(without - withStale < 2)
    }

    @Test func nullIslandAfterAWakeUpAddsNothing() throws {
        let run = try CorpusRun(
            CorpusVariant(route: .real("strava-run-gap.gpx"), movement: .steady(3), interval: .steady(1), noise: nil, device: .gpx, seed: 5),
            samples: TrackerCorpusTests.samples)
        var fixes = run.fixes
        let wake = fixes.count / 2
        let island = (0..<5).map { GPSFix(time: fixes[wake].time + 0.1 * Double($0 + 1), latitude: 0, longitude: 0) }
        fixes.insert(contentsOf: island, at: wake + 1)
        var tracker = DistanceTracker()
        for fix in fixes {
            let reading = tracker.update(with: fix)
            if fix.latitude == 0 && fix.longitude == 0 { #expect(reading.outcome == .invalidCoordinates) }
        }
        #expect(abs(tracker.meters - Self.total(run.fixes)) < 0.01)
    }
}
